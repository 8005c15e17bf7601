// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: sysman_device.c - zesInit, the Sysman driver and devices, and what zex has none of
 *
 * zesInit() opens the device as zeInit() does (either may come first;
 * the handles are the same). zesDeviceGet() lists the root device; its
 * tiles are sub-devices (zesDeviceGetSubDevicePropertiesExp, with the
 * core API's UUIDs). The properties are the core device's, with the
 * strings Sysman adds: no serial or board number ("unknown"), "zex" as
 * vendor and brand, libzex's version as the driver's. The state reports
 * no reset needed, or the device wedged once the kernel unplugged it.
 *
 * zex emulates a GPU in host memory: it has no fans, power or
 * temperature sensors, frequency domains, firmware, LEDs, PSUs, RAS
 * counters, standby, diagnostics, fabric ports, performance factors,
 * overclocking or ECC, and no PCI function (it is a platform device).
 * Each of those enumerations answers zero domains, ECC is not available,
 * and the PCI, reset and card power calls are unsupported, as Sysman's
 * specification says of a device without them.
 */

#include <stdio.h>
#include <string.h>

#include "core/usage.h"
#include "zex/zex_zes_api.h"
#include "sysman/sysman.h"

ZE_APIEXPORT ze_result_t ZE_APICALL zesInit(zes_init_flags_t flags)
{
	/* ZES_INIT_FLAG_PLACEHOLDER (1) is the only flag of the specification. */
	if (flags & ~1u)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	return zeInit(0);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDriverGet(uint32_t *pCount,
						 zes_driver_handle_t *phDrivers)
{
	return zeDriverGet(pCount, (ze_driver_handle_t *)phDrivers);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesDriverGetExtensionProperties(zes_driver_handle_t hDriver, uint32_t *pCount,
				zes_driver_extension_properties_t *pExtensionProperties)
{
	(void)pExtensionProperties;
	if (!zex_l0_driver((ze_driver_handle_t)hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*pCount = 0;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesDriverGetExtensionFunctionAddress(zes_driver_handle_t hDriver, const char *name,
				     void **ppFunctionAddress)
{
	if (!zex_l0_driver((ze_driver_handle_t)hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!name || !ppFunctionAddress)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* No Sysman extension: no name is one of its functions. */
	*ppFunctionAddress = NULL;
	return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceGet(zes_driver_handle_t hDriver, uint32_t *pCount,
						 zes_device_handle_t *phDevices)
{
	struct zex_l0_driver *drv = zex_l0_driver((ze_driver_handle_t)hDriver);
	void *root;

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	root = &drv->root;
	return zex_sysman_list(1, pCount, (void **)phDevices, &root);
}

/* Copy @s into a Sysman string property, cut to fit. */
static void zex_sysman_string(char *dst, const char *s)
{
	size_t n = strnlen(s, ZES_STRING_PROPERTY_SIZE - 1);

	memcpy(dst, s, n);
	dst[n] = 0;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesDeviceGetProperties(zes_device_handle_t hDevice, zes_device_properties_t *pProperties)
{
	struct zex_l0_device *dev = zex_sysman_device(hDevice);
	zes_device_ext_properties_t *ext;
	ze_base_properties_t *chain;
	ze_result_t res;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	pProperties->core.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
	pProperties->core.pNext = NULL;
	res = zex_l0_device_properties(dev, &pProperties->core);
	if (res)
		return res;
	pProperties->numSubdevices = dev->tile < 0 ? dev->drv->topo.num_tiles : 0;
	zex_sysman_string(pProperties->serialNumber, "unknown");
	zex_sysman_string(pProperties->boardNumber, "unknown");
	zex_sysman_string(pProperties->brandName, "zex");
	zex_sysman_string(pProperties->modelName, pProperties->core.name);
	zex_sysman_string(pProperties->vendorName, "zex");
	zex_sysman_string(pProperties->driverVersion, "0.1.0");
	for (chain = pProperties->pNext; chain; chain = chain->pNext) {
		if ((zes_structure_type_t)chain->stype != ZES_STRUCTURE_TYPE_DEVICE_EXT_PROPERTIES)
			continue;
		ext = (zes_device_ext_properties_t *)chain;
		memcpy(ext->uuid.id, pProperties->core.uuid.id, sizeof(ext->uuid.id));
		ext->type = ZES_DEVICE_TYPE_GPU;
		ext->flags = pProperties->core.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE ?
			     ZES_DEVICE_PROPERTY_FLAG_SUBDEVICE : 0;
	}
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceGetState(zes_device_handle_t hDevice,
						      zes_device_state_t *pState)
{
	struct zex_l0_device *dev = zex_sysman_device(hDevice);
	uint64_t size, used;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pState)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* Unplugged (the query fails), it runs nothing until zex.ko is loaded again. */
	pState->reset = zex_usage_tile_memory(dev->drv->dev, 0, &size, &used) ?
			ZES_RESET_REASON_FLAG_WEDGED : 0;
	pState->repaired = ZES_REPAIR_STATUS_UNSUPPORTED;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesDeviceGetSubDevicePropertiesExp(zes_device_handle_t hDevice, uint32_t *pCount,
				   zes_subdevice_exp_properties_t *pSubdeviceProps)
{
	struct zex_l0_device *dev = zex_sysman_device(hDevice);
	uint32_t n, i;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	n = dev->tile < 0 ? dev->drv->topo.num_tiles : 0;
	if (*pCount == 0 || *pCount > n) {
		pSubdeviceProps = *pCount ? pSubdeviceProps : NULL;
		*pCount = n;
	}
	for (i = 0; pSubdeviceProps && i < *pCount; i++) {
		ze_device_properties_t core = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };

		zex_l0_device_properties(&dev->drv->tiles[i], &core);
		pSubdeviceProps[i].subdeviceId = i;
		memcpy(pSubdeviceProps[i].uuid.id, core.uuid.id, sizeof(core.uuid.id));
	}
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesDriverGetDeviceByUuidExp(zes_driver_handle_t hDriver, zes_uuid_t uuid,
			    zes_device_handle_t *phDevice, ze_bool_t *onSubdevice,
			    uint32_t *subdeviceId)
{
	struct zex_l0_driver *drv = zex_l0_driver((ze_driver_handle_t)hDriver);
	int t;

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!phDevice || !onSubdevice || !subdeviceId)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* The root device, then each tile: its handle is the root's, on a sub-device. */
	for (t = -1; t < (int)drv->topo.num_tiles; t++) {
		struct zex_l0_device *d = t < 0 ? &drv->root : &drv->tiles[t];
		ze_device_properties_t core = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };

		if (zex_l0_device_properties(d, &core) ||
		    memcmp(core.uuid.id, uuid.id, sizeof(uuid.id)))
			continue;
		*phDevice = (zes_device_handle_t)&drv->root;
		*onSubdevice = t >= 0;
		*subdeviceId = t >= 0 ? (uint32_t)t : 0;
		return ZE_RESULT_SUCCESS;
	}
	return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

/*
 * What zex has none of: zero domains. Each checks its device handle and
 * count pointer as every enumeration does. (Each entry is written out:
 * tools/gen-ddi-tables.py finds the implemented entries by their
 * definitions.)
 */
static ze_result_t zex_sysman_none(zes_device_handle_t hDevice, uint32_t *pCount)
{
	if (!zex_sysman_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*pCount = 0;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumDiagnosticTestSuites(zes_device_handle_t hDevice, uint32_t *pCount,
								      zes_diag_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumFabricPorts(zes_device_handle_t hDevice, uint32_t *pCount,
							     zes_fabric_port_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumFans(zes_device_handle_t hDevice, uint32_t *pCount,
						      zes_fan_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumFirmwares(zes_device_handle_t hDevice, uint32_t *pCount,
							   zes_firmware_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumFrequencyDomains(zes_device_handle_t hDevice, uint32_t *pCount,
								  zes_freq_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumLeds(zes_device_handle_t hDevice, uint32_t *pCount,
						      zes_led_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumPerformanceFactorDomains(zes_device_handle_t hDevice, uint32_t *pCount,
									  zes_perf_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumPowerDomains(zes_device_handle_t hDevice, uint32_t *pCount,
							      zes_pwr_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumPsus(zes_device_handle_t hDevice, uint32_t *pCount,
						      zes_psu_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumRasErrorSets(zes_device_handle_t hDevice, uint32_t *pCount,
							      zes_ras_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumStandbyDomains(zes_device_handle_t hDevice, uint32_t *pCount,
								zes_standby_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumTemperatureSensors(zes_device_handle_t hDevice, uint32_t *pCount,
								    zes_temp_handle_t *phHandles)
{
	(void)phHandles;
	return zex_sysman_none(hDevice, pCount);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEccAvailable(zes_device_handle_t hDevice,
							  ze_bool_t *pAvailable)
{
	if (!zex_sysman_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pAvailable)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*pAvailable = 0;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEccConfigurable(zes_device_handle_t hDevice,
							     ze_bool_t *pConfigurable)
{
	return zesDeviceEccAvailable(hDevice, pConfigurable);
}

/* What a platform device without PCI, resets or a card power domain answers. */
static ze_result_t zex_sysman_lacks(zes_device_handle_t hDevice, const void *p, const char *why)
{
	if (!zex_sysman_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, why);
}

#define ZEX_NO_PCI	"zex is a platform device: it has no PCI function"

ZE_APIEXPORT ze_result_t ZE_APICALL zesDevicePciGetProperties(zes_device_handle_t hDevice,
							      zes_pci_properties_t *pProperties)
{
	return zex_sysman_lacks(hDevice, pProperties, ZEX_NO_PCI);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDevicePciGetState(zes_device_handle_t hDevice,
							 zes_pci_state_t *pState)
{
	return zex_sysman_lacks(hDevice, pState, ZEX_NO_PCI);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDevicePciGetBars(zes_device_handle_t hDevice,
							uint32_t *pCount,
							zes_pci_bar_properties_t *pProperties)
{
	(void)pProperties;
	return zex_sysman_lacks(hDevice, pCount, ZEX_NO_PCI);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDevicePciGetStats(zes_device_handle_t hDevice,
							 zes_pci_stats_t *pStats)
{
	return zex_sysman_lacks(hDevice, pStats, ZEX_NO_PCI);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceReset(zes_device_handle_t hDevice, ze_bool_t force)
{
	(void)force;
	return zex_sysman_lacks(hDevice, hDevice,
				"zex cannot reset the device: unloading and loading zex.ko is "
				"its reset, which ends every process's use of it");
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceGetCardPowerDomain(zes_device_handle_t hDevice,
								zes_pwr_handle_t *phPower)
{
	return zex_sysman_lacks(hDevice, phPower, "zex has no power domain");
}
