/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex/zex_zes_api.h - the Sysman calls of API 1.5 to 1.10 that libzex implements
 *
 * Debian 12's <level_zero/zes_api.h> is API 1.4: it lacks zesInit() and the
 * Sysman driver and device enumeration of 1.5, the device's extended
 * properties (1.7), the sub-device properties and the device lookup by
 * UUID (1.9). Their names, values and layouts are the specification's;
 * headers of 1.10 and later (ZE_API_VERSION_CURRENT_M) declare them all.
 */

#ifndef ZEX_ZEX_ZES_API_H
#define ZEX_ZEX_ZES_API_H

#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ZE_API_VERSION_CURRENT_M
#define ZES_MAX_EXTENSION_NAME 256
#define ZES_MAX_UUID_SIZE 16
#define ZES_STRUCTURE_TYPE_DEVICE_EXT_PROPERTIES ((zes_structure_type_t)0x2d)
#define ZES_STRUCTURE_TYPE_SUBDEVICE_EXP_PROPERTIES ((zes_structure_type_t)0x00020004)

/** 1.5: zesInit()'s flags */
typedef uint32_t zes_init_flags_t;
/** 1.8: a Sysman driver extension */
typedef struct _zes_driver_extension_properties_t {
	char name[ZES_MAX_EXTENSION_NAME];
	uint32_t version;
} zes_driver_extension_properties_t;
/** 1.7: a device's universal unique identifier */
typedef struct _zes_uuid_t {
	uint8_t id[ZES_MAX_UUID_SIZE];
} zes_uuid_t;
/** 1.7: a device's type */
typedef enum _zes_device_type_t {
	ZES_DEVICE_TYPE_GPU = 1,
	ZES_DEVICE_TYPE_CPU = 2,
	ZES_DEVICE_TYPE_FPGA = 3,
	ZES_DEVICE_TYPE_MCA = 4,
	ZES_DEVICE_TYPE_VPU = 5,
	ZES_DEVICE_TYPE_FORCE_UINT32 = 0x7fffffff
} zes_device_type_t;
typedef uint32_t zes_device_property_flags_t;
#define ZES_DEVICE_PROPERTY_FLAG_INTEGRATED ((zes_device_property_flags_t)ZE_BIT(0))
#define ZES_DEVICE_PROPERTY_FLAG_SUBDEVICE ((zes_device_property_flags_t)ZE_BIT(1))
#define ZES_DEVICE_PROPERTY_FLAG_ECC ((zes_device_property_flags_t)ZE_BIT(2))
#define ZES_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING ((zes_device_property_flags_t)ZE_BIT(3))
/** 1.7: chained on zes_device_properties_t */
typedef struct _zes_device_ext_properties_t {
	zes_structure_type_t stype;
	void *pNext;
	zes_uuid_t uuid;
	zes_device_type_t type;
	zes_device_property_flags_t flags;
} zes_device_ext_properties_t;
/** 1.9: one sub-device of a device */
typedef struct _zes_subdevice_exp_properties_t {
	zes_structure_type_t stype;
	void *pNext;
	uint32_t subdeviceId;
	zes_uuid_t uuid;
} zes_subdevice_exp_properties_t;

ZE_APIEXPORT ze_result_t ZE_APICALL zesInit(zes_init_flags_t flags);
ZE_APIEXPORT ze_result_t ZE_APICALL zesDriverGet(uint32_t *pCount,
						 zes_driver_handle_t *phDrivers);
ZE_APIEXPORT ze_result_t ZE_APICALL
zesDriverGetExtensionProperties(zes_driver_handle_t hDriver, uint32_t *pCount,
				zes_driver_extension_properties_t *pExtensionProperties);
ZE_APIEXPORT ze_result_t ZE_APICALL
zesDriverGetExtensionFunctionAddress(zes_driver_handle_t hDriver, const char *name,
				     void **ppFunctionAddress);
ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceGet(zes_driver_handle_t hDriver, uint32_t *pCount,
						 zes_device_handle_t *phDevices);
ZE_APIEXPORT ze_result_t ZE_APICALL
zesDeviceGetSubDevicePropertiesExp(zes_device_handle_t hDevice, uint32_t *pCount,
				   zes_subdevice_exp_properties_t *pSubdeviceProps);
ZE_APIEXPORT ze_result_t ZE_APICALL
zesDriverGetDeviceByUuidExp(zes_driver_handle_t hDriver, zes_uuid_t uuid,
			    zes_device_handle_t *phDevice, ze_bool_t *onSubdevice,
			    uint32_t *subdeviceId);
#endif

#ifdef __cplusplus
}
#endif

#endif /* ZEX_ZEX_ZES_API_H */
