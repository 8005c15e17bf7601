/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex/zex_api.h - Level Zero entry points of libzex and its extensions
 *
 * libzex implements Level Zero calls (declared by <level_zero/ze_api.h>)
 * over the zex kernel driver, and the extensions below: seed 000's
 * multiple IPC handles, plus what that extension leaves out — releasing
 * every handle of a multi-handle allocation at once (pmodels/mpich#7121)
 * and passing a handle array to another process over a Unix socket.
 * Every function is thread-safe.
 *
 * Handles carry fds (at offset 0 of each handle) that belong to libzex. The
 * first get on an allocation exports it, one dma-buf fd per piece; later
 * gets return the same fds. zexMemPutIpcHandles() (or zeMemPutIpcHandle())
 * gives one get back, the last closes the fds, and zeMemFree() closes any
 * left. The fds zexIpcHandlesRecv() installs are libzex's too, until
 * zexMemPutIpcHandles() closes them. A handle that names no fd libzex
 * holds is refused: libzex closes no fd it did not make or receive. An fd
 * the application received itself stays the application's;
 * zexMemOpenIpcHandles() does not consume it.
 */

#ifndef ZEX_ZEX_API_H
#define ZEX_ZEX_API_H

#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Spec v1.17 names and values absent from the 1.4 headers. */
#ifndef ZE_EXTERNAL_MEMORY_MAPPING_EXT_NAME
#define ZE_EXTERNAL_MEMORY_MAPPING_EXT_NAME "ZE_extension_external_memmap_sysmem"
#define ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC ((ze_structure_type_t)0x00020037)
/** System memory mapped by zeMemAllocHost (chained on ze_host_mem_alloc_desc_t) */
typedef struct _ze_external_memmap_sysmem_ext_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	void *pSystemMemory;
	uint64_t size;
} ze_external_memmap_sysmem_ext_desc_t;
#endif
#ifndef ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY
#define ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY ((ze_host_mem_alloc_flags_t)ZE_BIT(4))
#endif
#ifndef ZE_MEMORY_TYPE_HOST_IMPORTED
#define ZE_MEMORY_TYPE_HOST_IMPORTED ((ze_memory_type_t)4)
#endif

#ifndef ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME
#define ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME "ZE_extension_virtual_mem_readonly_properties"
#define ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES ((ze_structure_type_t)0x00010015)
/** What ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY does to the device's writes */
typedef enum _ze_device_readonly_memory_capability_t {
	ZE_DEVICE_READONLY_MEMORY_CAPABILITY_NONE = 0,
	ZE_DEVICE_READONLY_MEMORY_CAPABILITY_HINT = 1,
	ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED = 2,
	ZE_DEVICE_READONLY_MEMORY_CAPABILITY_FORCE_UINT32 = 0x7fffffff
} ze_device_readonly_memory_capability_t;
/** Chained on ze_device_properties_t by zeDeviceGetProperties() */
typedef struct _ze_device_readonly_memory_ext_properties_t {
	ze_structure_type_t stype;
	void *pNext;
	ze_device_readonly_memory_capability_t readonlyCapability;
} ze_device_readonly_memory_ext_properties_t;
#endif

/*
 * The calls of API 1.5 to 1.10 that libzex implements, and their types, for
 * builds with headers older than 1.10 (Debian 12's are 1.4). Headers that
 * define ZE_API_VERSION_CURRENT_M (1.10 and later) declare them all.
 */
#ifndef ZE_API_VERSION_CURRENT_M
#define ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC ((ze_structure_type_t)0x00020021)

/** Which drivers zeInitDrivers() initialises and returns */
typedef uint32_t ze_init_driver_type_flags_t;
#define ZE_INIT_DRIVER_TYPE_FLAG_GPU ((ze_init_driver_type_flags_t)ZE_BIT(0))
#define ZE_INIT_DRIVER_TYPE_FLAG_NPU ((ze_init_driver_type_flags_t)ZE_BIT(1))

/** zeInitDrivers()'s descriptor */
typedef struct _ze_init_driver_type_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_init_driver_type_flags_t flags;
} ze_init_driver_type_desc_t;

/** 1.7: atomic access attributes of a shared allocation */
typedef uint32_t ze_memory_atomic_attr_exp_flags_t;
#define ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS ((ze_memory_atomic_attr_exp_flags_t)ZE_BIT(0))
#define ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_HOST_ATOMICS ((ze_memory_atomic_attr_exp_flags_t)ZE_BIT(1))
#define ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_HOST_ATOMICS ((ze_memory_atomic_attr_exp_flags_t)ZE_BIT(2))
#define ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_DEVICE_ATOMICS ((ze_memory_atomic_attr_exp_flags_t)ZE_BIT(3))
#define ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_DEVICE_ATOMICS ((ze_memory_atomic_attr_exp_flags_t)ZE_BIT(4))
#define ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_SYSTEM_ATOMICS ((ze_memory_atomic_attr_exp_flags_t)ZE_BIT(5))
#define ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS ((ze_memory_atomic_attr_exp_flags_t)ZE_BIT(6))

/* 1.10: initialise the drivers of @desc's types and return their handles */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeInitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
	      ze_init_driver_type_desc_t *desc);
/* 1.6: the description of the calling thread's last error on @hDriver */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDriverGetLastErrorDescription(ze_driver_handle_t hDriver, const char **ppString);
/* 1.7: the root device of a sub-device (NULL for a root device) */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetRootDevice(ze_device_handle_t hDevice, ze_device_handle_t *phRootDevice);
/* 1.6: wait until an immediate command list has run what was appended */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListHostSynchronize(ze_command_list_handle_t hCommandList, uint64_t timeout);
/* 1.9: the queue group ordinal and the index a command queue was created with */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandQueueGetOrdinal(ze_command_queue_handle_t hCommandQueue, uint32_t *pOrdinal);
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandQueueGetIndex(ze_command_queue_handle_t hCommandQueue, uint32_t *pIndex);
/* 1.6: give back a handle of zeEventPoolGetIpcHandle() */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventPoolPutIpcHandle(ze_context_handle_t hContext, ze_ipc_event_pool_handle_t hIpc);
/* 1.6: give back a handle of zeMemGetIpcHandle() */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemPutIpcHandle(ze_context_handle_t hContext, ze_ipc_mem_handle_t handle);
/* 1.6: an IPC handle from an allocation's dma-buf fd */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetIpcHandleFromFileDescriptorExp(ze_context_handle_t hContext, uint64_t handle,
				       ze_ipc_mem_handle_t *pIpcHandle);
/* 1.6: the dma-buf fd of an IPC handle */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetFileDescriptorFromIpcHandleExp(ze_context_handle_t hContext,
				       ze_ipc_mem_handle_t ipcHandle, uint64_t *pHandle);
/* 1.7: set and read the atomic access attributes of a shared allocation */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemSetAtomicAccessAttributeExp(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				 const void *ptr, size_t size,
				 ze_memory_atomic_attr_exp_flags_t attr);
ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetAtomicAccessAttributeExp(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				 const void *ptr, size_t size,
				 ze_memory_atomic_attr_exp_flags_t *pAttr);
/** 1.6: ZE_extension_event_query_kernel_timestamps */
#define ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_NAME "ZE_extension_event_query_kernel_timestamps"
#define ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_VERSION_1_0 ZE_MAKE_VERSION(1, 0)
#define ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES \
	((ze_structure_type_t)0x00010011)
#define ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_RESULTS_EXT_PROPERTIES \
	((ze_structure_type_t)0x00010012)
#define ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP ((ze_event_pool_flags_t)ZE_BIT(3))
/** What zeEventQueryKernelTimestampsExt() gives (chained on ze_device_properties_t) */
typedef uint32_t ze_event_query_kernel_timestamps_ext_flags_t;
#define ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_KERNEL \
	((ze_event_query_kernel_timestamps_ext_flags_t)ZE_BIT(0))
#define ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_SYNCHRONIZED \
	((ze_event_query_kernel_timestamps_ext_flags_t)ZE_BIT(1))
typedef struct _ze_event_query_kernel_timestamps_ext_properties_t {
	ze_structure_type_t stype;
	void *pNext;
	ze_event_query_kernel_timestamps_ext_flags_t flags;
} ze_event_query_kernel_timestamps_ext_properties_t;
/** A kernel timestamp in the host's time domain (nanoseconds) */
typedef struct _ze_synchronized_timestamp_data_ext_t {
	uint64_t kernelStart;
	uint64_t kernelEnd;
} ze_synchronized_timestamp_data_ext_t;
typedef struct _ze_synchronized_timestamp_result_ext_t {
	ze_synchronized_timestamp_data_ext_t global;
	ze_synchronized_timestamp_data_ext_t context;
} ze_synchronized_timestamp_result_ext_t;
/** Where zeEventQueryKernelTimestampsExt() writes an event's timestamps */
typedef struct _ze_event_query_kernel_timestamps_results_ext_properties_t {
	ze_structure_type_t stype;
	void *pNext;
	ze_kernel_timestamp_result_t *pKernelTimestampsBuffer;
	ze_synchronized_timestamp_result_ext_t *pSynchronizedTimestampsBuffer;
} ze_event_query_kernel_timestamps_results_ext_properties_t;
/* 1.6: an event's kernel timestamps, one per packet */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventQueryKernelTimestampsExt(ze_event_handle_t hEvent, ze_device_handle_t hDevice,
				uint32_t *pCount,
				ze_event_query_kernel_timestamps_results_ext_properties_t *pResults);
/* 1.9: run closed regular command lists through an immediate one */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListImmediateAppendCommandListsExp(ze_command_list_handle_t hCommandListImmediate,
					    uint32_t numCommandLists,
					    ze_command_list_handle_t *phCommandLists,
					    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					    ze_event_handle_t *phWaitEvents);
#endif

/*
 * The calls of API 1.11 to 1.15 that libzex implements, and their types,
 * for headers older than 1.15.
 */
#if !defined(ZE_API_VERSION_CURRENT_M) || ZE_API_VERSION_CURRENT_M < ZE_MAKE_VERSION(1, 15)
#define ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC ((ze_structure_type_t)0x0002003A)
#define ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC ((ze_structure_type_t)0x0002003D)
#define ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES ((ze_structure_type_t)0x00020040)

/** 1.14: a kernel's work-group size, as zeCommandListAppendLaunchKernelWithArguments() takes it */
typedef struct _ze_group_size_t {
	uint32_t groupSizeX;
	uint32_t groupSizeY;
	uint32_t groupSizeZ;
} ze_group_size_t;

/** 1.15: what a counter-based event is used for */
typedef uint32_t ze_event_counter_based_flags_t;
#define ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE ((ze_event_counter_based_flags_t)ZE_BIT(0))
#define ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE ((ze_event_counter_based_flags_t)ZE_BIT(1))
#define ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE ((ze_event_counter_based_flags_t)ZE_BIT(2))
#define ZE_EVENT_COUNTER_BASED_FLAG_IPC ((ze_event_counter_based_flags_t)ZE_BIT(3))
#define ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP ((ze_event_counter_based_flags_t)ZE_BIT(4))
#define ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP ((ze_event_counter_based_flags_t)ZE_BIT(5))
#define ZE_EVENT_COUNTER_BASED_FLAG_GRAPH_EXTERNAL ((ze_event_counter_based_flags_t)ZE_BIT(6))

/** 1.15: zeEventCounterBasedCreate()'s descriptor */
typedef struct _ze_event_counter_based_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_event_counter_based_flags_t flags;
	ze_event_scope_flags_t signal;
	ze_event_scope_flags_t wait;
} ze_event_counter_based_desc_t;

/** 1.15: the kind of IPC handle asked of zeMemGetIpcHandleWithProperties() */
typedef uint32_t ze_ipc_mem_handle_type_flags_t;
#define ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT ((ze_ipc_mem_handle_type_flags_t)ZE_BIT(0))
#define ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE ((ze_ipc_mem_handle_type_flags_t)ZE_BIT(1))
typedef struct _ze_ipc_mem_handle_type_ext_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_ipc_mem_handle_type_flags_t typeFlags;
} ze_ipc_mem_handle_type_ext_desc_t;

/** 1.15: what zePhysicalMemGetProperties() says of a physical memory object */
typedef struct _ze_physical_mem_properties_t {
	ze_structure_type_t stype;
	void *pNext;
	uint64_t id;
	uint64_t size;
} ze_physical_mem_properties_t;

/* 1.14: the driver's context of all its devices, made with it */
ZE_APIEXPORT ze_context_handle_t ZE_APICALL
zeDriverGetDefaultContext(ze_driver_handle_t hDriver);
/* 1.14: wait until every queue of the device has run what was submitted to it */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceSynchronize(ze_device_handle_t hDevice);
/* 1.14: a launch with its group size and arguments in the call */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendLaunchKernelWithArguments(ze_command_list_handle_t hCommandList,
					     ze_kernel_handle_t hKernel,
					     const ze_group_count_t groupCounts,
					     const ze_group_size_t groupSizes, void **pArguments,
					     const void *pNext, ze_event_handle_t hSignalEvent,
					     uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
/* 1.15: an event that follows the last operation signalling it */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventCounterBasedCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
			  const ze_event_counter_based_desc_t *desc, ze_event_handle_t *phEvent);
/* 1.15: zeMemGetIpcHandle() with the kind of handle asked for in @pNext */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetIpcHandleWithProperties(ze_context_handle_t hContext, const void *ptr, void *pNext,
				ze_ipc_mem_handle_t *pIpcHandle);
/* 1.15: a physical memory object's size and identifier */
ZE_APIEXPORT ze_result_t ZE_APICALL
zePhysicalMemGetProperties(ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMem,
			   ze_physical_mem_properties_t *pMemProperties);
#endif

/*
 * The experimental counter-based event pools (deprecated by 1.15's
 * zeEventCounterBasedCreate, still what runtimes written before it use),
 * for headers without them.
 */
#ifndef ZE_EVENT_POOL_COUNTER_BASED_EXP_NAME
#define ZE_EVENT_POOL_COUNTER_BASED_EXP_NAME "ZE_experimental_event_pool_counter_based"
#define ZE_EVENT_POOL_COUNTER_BASED_EXP_VERSION_1_0 ZE_MAKE_VERSION(1, 0)
#define ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC ((ze_structure_type_t)0x00020014)
typedef uint32_t ze_event_pool_counter_based_exp_flags_t;
#define ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_IMMEDIATE \
	((ze_event_pool_counter_based_exp_flags_t)ZE_BIT(0))
#define ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_NON_IMMEDIATE \
	((ze_event_pool_counter_based_exp_flags_t)ZE_BIT(1))
/** zeEventPoolCreate()'s pNext: the pool's events are counter-based */
typedef struct _ze_event_pool_counter_based_exp_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_event_pool_counter_based_exp_flags_t flags;
} ze_event_pool_counter_based_exp_desc_t;
#endif

#ifndef ZEX_MEM_IPC_HANDLES_NAME
/** Multiple IPC handles driver extension name */
#define ZEX_MEM_IPC_HANDLES_NAME "ZEX_mem_ipc_handles"
#endif

/**
 * zexDriverImportExternalPointer - register host memory for the device
 *
 * compute-runtime's extension (MPI libraries call it on their host
 * buffers): [@ptr, @ptr + @size) stays the application's; the device
 * reaches it without an import per submission until it is released. A
 * range inside a registration is registered already; one overlapping a
 * registration otherwise is ZE_RESULT_ERROR_OVERLAPPING_REGIONS.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexDriverImportExternalPointer(ze_driver_handle_t hDriver, void *ptr, size_t size);

/** zexDriverReleaseImportedPointer - end the registration holding @ptr */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver, void *ptr);

/**
 * zexDriverGetHostPointerBaseAddress - the first byte of the registration holding @ptr
 *
 * ZE_RESULT_ERROR_INVALID_ARGUMENT when @ptr is in none; @baseAddress may
 * be NULL (the question alone).
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexDriverGetHostPointerBaseAddress(ze_driver_handle_t hDriver, void *ptr, void **baseAddress);

#ifndef ZEX_MEM_IPC_HANDLES_VERSION_DEFINED
#define ZEX_MEM_IPC_HANDLES_VERSION_DEFINED
/** Multiple IPC handles driver extension versions */
typedef enum _zex_mem_ipc_handles_version_t {
	ZEX_MEM_IPC_HANDLES_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
	ZEX_MEM_IPC_HANDLES_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
	ZEX_MEM_IPC_HANDLES_VERSION_FORCE_UINT32 = 0x7fffffff
} zex_mem_ipc_handles_version_t;
#endif

/**
 * zexMemGetIpcHandles - one IPC handle per internal allocation of @ptr
 *
 * With *@numIpcHandles 0 or larger than the allocation's count, it is set
 * to the count; with @pIpcHandles NULL only the count is returned; a
 * smaller non-zero count is ZE_RESULT_ERROR_INVALID_SIZE. An unknown @ptr
 * is ZE_RESULT_ERROR_INVALID_ARGUMENT.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemGetIpcHandles(ze_context_handle_t hContext, const void *ptr,
		    uint32_t *numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles);

/**
 * zexMemOpenIpcHandles - one pointer for an allocation exported as handles
 *
 * Close it with zeMemCloseIpcHandle(), not zeMemFree().
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemOpenIpcHandles(ze_context_handle_t hContext, ze_device_handle_t hDevice,
		     uint32_t numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles,
		     ze_ipc_memory_flags_t flags, void **pptr);

/**
 * zexMemPutIpcHandles - give back every handle of one zexMemGetIpcHandles()
 * or one zexIpcHandlesRecv() allocation; their bytes are zeroed
 *
 * Handles that name no export or receive libzex holds are
 * ZE_RESULT_ERROR_INVALID_ARGUMENT, and nothing is closed.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemPutIpcHandles(ze_context_handle_t hContext, uint32_t numIpcHandles,
		    ze_ipc_mem_handle_t *pIpcHandles);

/** zexIpcHandlesSend - send handles (their data and their fds) over a Unix socket */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexIpcHandlesSend(int socket, uint32_t numIpcHandles,
		  const ze_ipc_mem_handle_t *pIpcHandles);

/**
 * zexIpcHandlesRecv - receive handles sent with zexIpcHandlesSend()
 *
 * *@numIpcHandles is the room at @pIpcHandles on entry and the count
 * received on return; too little room is ZE_RESULT_ERROR_INVALID_SIZE and
 * the fds received are closed.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zexIpcHandlesRecv(int socket, uint32_t *numIpcHandles,
		  ze_ipc_mem_handle_t *pIpcHandles);

#ifdef __cplusplus
}
#endif

#endif /* ZEX_ZEX_API_H */
