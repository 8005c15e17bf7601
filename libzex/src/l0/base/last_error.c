// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: last_error.c - zeDriverGetLastErrorDescription: each thread's last explained failure
 *
 * Where a result code alone would leave the caller guessing, libzex returns
 * through zex_l0_fail(), which keeps a static description for the calling
 * thread; zeDriverGetLastErrorDescription() returns it, or an empty string
 * when this thread has had none.
 */

#include "l0/base/l0.h"

/* Each thread's last failure, for zeDriverGetLastErrorDescription(). */
static _Thread_local const char *zex_last_error;

/** zex_l0_fail - return @res, remembering @why as this thread's last error */
ze_result_t zex_l0_fail(ze_result_t res, const char *why)
{
	zex_last_error = why;
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDriverGetLastErrorDescription(ze_driver_handle_t hDriver, const char **ppString)
{
	if (!zex_l0_driver(hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ppString)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*ppString = zex_last_error ? zex_last_error : "";
	return ZE_RESULT_SUCCESS;
}
