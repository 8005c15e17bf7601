/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex/zex_ddi.h - the DDI handles extension (ZE_extension_driver_ddi_handles)
 *
 * Every handle libzex gives out (driver, device, sub-device, context) starts
 * with a &ze_handle_t: pointers to libzex's own dispatch containers for the
 * core (ze), tools (zet) and sysman (zes) APIs. A DDI-aware loader, or any
 * caller, dispatches a call on a handle as
 *
 *	((ze_handle_t *)hDevice)->pCore->Device->pfnGetProperties(hDevice, &p);
 *
 * after checking the container's isValidFlag, that its version is at least
 * the call's API version, and that the table and the entry are not NULL.
 *
 * Debian 12's Level Zero headers are API 1.4 and define none of this, so the
 * types are defined here with the spec's names, field for field as loader
 * 1.32.0's include/ze_ddi.h, zet_ddi.h and zes_ddi.h lay them out (spec
 * 1.17); libzex/tests/ddi_layout.py checks every offset against those
 * headers. A table type the 1.4 headers lack is a void pointer here; libzex
 * fills every table of API 1.15 (the version it reports) and leaves newer
 * ones NULL, which a DDI-aware loader never reads: it refuses a call newer
 * than the driver's version first. With the spec's own headers (which
 * define ZE_DRIVER_DDI_HANDLES_EXT_NAME) the definitions here step aside.
 */

#ifndef ZEX_ZEX_DDI_H
#define ZEX_ZEX_DDI_H

#include <stdint.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ZE_DRIVER_DDI_HANDLES_EXT_NAME
#define ZE_DRIVER_DDI_HANDLES_EXT_NAME "ZE_extension_driver_ddi_handles"
#define ZE_STRUCTURE_TYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES ((ze_structure_type_t)0x00020027)

/** Driver DDI handles extension versions */
typedef enum _ze_driver_ddi_handles_ext_version_t {
	ZE_DRIVER_DDI_HANDLES_EXT_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
	ZE_DRIVER_DDI_HANDLES_EXT_VERSION_1_1 = ZE_MAKE_VERSION(1, 1),
	ZE_DRIVER_DDI_HANDLES_EXT_VERSION_CURRENT = ZE_MAKE_VERSION(1, 1),
	ZE_DRIVER_DDI_HANDLES_EXT_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_driver_ddi_handles_ext_version_t;

/** Driver DDI handles extension flags */
typedef uint32_t ze_driver_ddi_handle_ext_flags_t;
#define ZE_DRIVER_DDI_HANDLE_EXT_FLAG_DDI_HANDLE_EXT_SUPPORTED ZE_BIT(0)

/** Chained on ze_driver_properties_t.pNext for zeDriverGetProperties() */
typedef struct _ze_driver_ddi_handles_ext_properties_t {
	ze_structure_type_t stype;
	void *pNext;
	ze_driver_ddi_handle_ext_flags_t flags;
} ze_driver_ddi_handles_ext_properties_t;

/** The core API's tables of one driver, with the driver's API version */
typedef struct _ze_dditable_driver_t {
	ze_api_version_t version;
	uint8_t isValidFlag;
	void *RTASBuilder;
	void *RTASBuilderExp;
	void *RTASParallelOperation;
	void *RTASParallelOperationExp;
	ze_global_dditable_t *Global;
	ze_driver_dditable_t *Driver;
	void *DriverExp;
	ze_device_dditable_t *Device;
	ze_device_exp_dditable_t *DeviceExp;
	ze_context_dditable_t *Context;
	ze_command_queue_dditable_t *CommandQueue;
	ze_command_list_dditable_t *CommandList;
	void *CommandListExp;
	ze_image_dditable_t *Image;
	ze_image_exp_dditable_t *ImageExp;
	ze_mem_dditable_t *Mem;
	void *MemExp;
	ze_fence_dditable_t *Fence;
	ze_event_pool_dditable_t *EventPool;
	ze_event_dditable_t *Event;
	ze_event_exp_dditable_t *EventExp;
	ze_module_dditable_t *Module;
	ze_module_build_log_dditable_t *ModuleBuildLog;
	ze_kernel_dditable_t *Kernel;
	ze_kernel_exp_dditable_t *KernelExp;
	ze_sampler_dditable_t *Sampler;
	ze_physical_mem_dditable_t *PhysicalMem;
	ze_virtual_mem_dditable_t *VirtualMem;
	ze_fabric_vertex_exp_dditable_t *FabricVertexExp;
	ze_fabric_edge_exp_dditable_t *FabricEdgeExp;
	void *Graph;
	void *ExecutableGraph;
} ze_dditable_driver_t;

/** The tools API's tables of one driver */
typedef struct _zet_dditable_driver_t {
	ze_api_version_t version;
	uint8_t isValidFlag;
	void *MetricProgrammableExp;
	void *MetricTracerExp;
	void *MetricDecoderExp;
	zet_device_dditable_t *Device;
	void *DeviceExp;
	zet_context_dditable_t *Context;
	zet_command_list_dditable_t *CommandList;
	void *CommandListExp;
	zet_module_dditable_t *Module;
	zet_kernel_dditable_t *Kernel;
	zet_metric_dditable_t *Metric;
	void *MetricExp;
	zet_metric_group_dditable_t *MetricGroup;
	zet_metric_group_exp_dditable_t *MetricGroupExp;
	zet_metric_streamer_dditable_t *MetricStreamer;
	zet_metric_query_pool_dditable_t *MetricQueryPool;
	zet_metric_query_dditable_t *MetricQuery;
	zet_tracer_exp_dditable_t *TracerExp;
	zet_debug_dditable_t *Debug;
} zet_dditable_driver_t;

/** The sysman API's tables of one driver */
typedef struct _zes_dditable_driver_t {
	ze_api_version_t version;
	uint8_t isValidFlag;
	void *Global;
	zes_device_dditable_t *Device;
	void *DeviceExp;
	zes_driver_dditable_t *Driver;
	void *DriverExp;
	void *Overclock;
	zes_scheduler_dditable_t *Scheduler;
	zes_performance_factor_dditable_t *PerformanceFactor;
	zes_power_dditable_t *Power;
	zes_frequency_dditable_t *Frequency;
	zes_engine_dditable_t *Engine;
	zes_standby_dditable_t *Standby;
	zes_firmware_dditable_t *Firmware;
	void *FirmwareExp;
	zes_memory_dditable_t *Memory;
	zes_fabric_port_dditable_t *FabricPort;
	zes_temperature_dditable_t *Temperature;
	zes_psu_dditable_t *Psu;
	zes_fan_dditable_t *Fan;
	zes_led_dditable_t *Led;
	zes_ras_dditable_t *Ras;
	void *RasExp;
	zes_diagnostics_dditable_t *Diagnostics;
	void *VFManagementExp;
} zes_dditable_driver_t;

/** The header every handle of a DDI-handles driver starts with (extension 1.0) */
typedef struct _ze_handle_t {
	ze_dditable_driver_t *pCore;
	zet_dditable_driver_t *pTools;
	zes_dditable_driver_t *pSysman;
} ze_handle_t;
#endif /* ZE_DRIVER_DDI_HANDLES_EXT_NAME */

#ifdef __cplusplus
}
#endif

#endif /* ZEX_ZEX_DDI_H */
