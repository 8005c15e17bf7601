// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_hostrpc_reap.c - what a dead view leaves behind
 *
 * A host view that dies holding T words (killed between taking a slot and
 * answering it) releases them: the slot's request is still unanswered, so
 * another server takes it over (an answer half-written is written again),
 * once its group's summary flag says so: the dead view's slots get their
 * flags set again.
 *
 * A device view that dies holding W words may have calls in any state. The
 * kernel takes each such slot over (W becomes %DRM_ZEX_HOSTRPC_OWNER_ORPHAN,
 * so no device view acquires or collects it) and finishes the call as the
 * device would, by the slot's request and answer words:
 *
 * ===================  ==============================================
 * words                the reaper
 * ===================  ==============================================
 * request == answer    nothing published, or answered: free the slot
 *                      (its mirror set to the request first)
 * request != answer    the host has not answered: wait
 * ===================  ==============================================
 *
 * While orphans remain, the reaper arms the device side's doorbell and
 * re-checks, exactly as a device-side waiter does; the host's ring after
 * an answer runs the reaper again (zex_hostrpc_deliver()).
 */

#include <linux/atomic.h>
#include <linux/bitmap.h>

#include "../common/zex_kunit_export.h"
#include "zex_hostrpc.h"

/* More passes than this in one go: let the workqueue run it again. */
#define ZEX_HOSTRPC_REAP_PASSES	8

/**
 * zex_hostrpc_release_owner - a dead view gives up its owner words
 * @view: the view being destroyed.
 *
 * Each slot whose owner word names @view is released (host) or handed to
 * the reaper (device). Compare-and-swap, because a live device view's
 * garbage collection may be taking an asynchronous call over at the same
 * time.
 */
void zex_hostrpc_release_owner(struct zex_hostrpc_view *view)
{
	struct zex_hostrpc_channel *ch = view->ch;
	u32 *owner = ch->priv[view->side]->owner;
	bool device = view->side == ZEX_HOSTRPC_DEVICE;
	u32 to = device ? DRM_ZEX_HOSTRPC_OWNER_ORPHAN : 0;
	unsigned int orphaned = 0, released = 0;
	u32 slot;

	mutex_lock(&ch->reap_lock);
	for (slot = 0; slot < ch->nslots; slot++) {
		u32 w = READ_ONCE(owner[slot]);

		while ((w & DRM_ZEX_HOSTRPC_OWNER_ID_MASK) == view->id) {
			u32 old = cmpxchg(&owner[slot], w, to);

			if (old == w) {
				if (device) {
					__set_bit(slot, ch->orphans);
					orphaned++;
				} else {
					/* Servers look at the slot's group again. */
					smp_store_mb(ch->control->summary[slot / 64], 1);
					released++;
				}
				break;
			}
			w = old;
		}
	}
	atomic_add(orphaned, &ch->norphans);
	mutex_unlock(&ch->reap_lock);

	if (released)
		zex_hostrpc_ring_if_armed(ch, ZEX_HOSTRPC_HOST);

	if (orphaned) {
		drm_dbg(ch->drm, "hostrpc: device view %u died holding %u slots\n",
			view->id, orphaned);
		zex_hostrpc_reap(ch);
	}
}

/* Under reap_lock: one step for every orphan; true if any could move. */
static bool zex_hostrpc_reap_pass(struct zex_hostrpc_channel *ch, bool act)
{
	struct drm_zex_hostrpc_control *c = ch->control;
	struct drm_zex_hostrpc_private *dev = ch->priv[ZEX_HOSTRPC_DEVICE];
	bool movable = false;
	u32 slot;

	for_each_set_bit(slot, ch->orphans, ch->nslots) {
		u32 request = READ_ONCE(c->request[slot]);

		/* Acquire: pairs with the host's release of the answer (page done). */
		if (request != smp_load_acquire(&c->answer[slot]))
			continue;	/* the host's turn */
		movable = true;
		if (!act)
			continue;
		/* Done: back to the pool, the mirror first, then W. */
		WRITE_ONCE(dev->mirror[slot], request);
		/* Release: an acquirer's CAS sees a finished slot. */
		smp_store_release(&dev->owner[slot], 0);
		__clear_bit(slot, ch->orphans);
		atomic_dec(&ch->norphans);
		ch->reaped++;
	}
	return movable;
}

/**
 * zex_hostrpc_reap - move every orphaned slot on as far as it goes now
 * @ch: the channel.
 *
 * Ends with the device side armed while orphans remain, after a re-check,
 * so the host's next change of H rings and brings the reaper back.
 */
void zex_hostrpc_reap(struct zex_hostrpc_channel *ch)
{
	int pass;

	mutex_lock(&ch->reap_lock);
	for (pass = 0; pass < ZEX_HOSTRPC_REAP_PASSES; pass++) {
		zex_hostrpc_reap_pass(ch, true);
		if (!atomic_read(&ch->norphans) || READ_ONCE(ch->dead))
			break;
		/* Arm, fully ordered, then re-check: as a device waiter. */
		smp_store_mb(ch->control->device_armed, 1);
		if (!zex_hostrpc_reap_pass(ch, false))
			break;
	}
	if (pass == ZEX_HOSTRPC_REAP_PASSES)
		queue_work(system_wq, &ch->reap_work);
	mutex_unlock(&ch->reap_lock);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_reap);

/**
 * zex_hostrpc_reap_work - the reaper, run after a ring to the device side
 * @work: &zex_hostrpc_channel.reap_work.
 */
void zex_hostrpc_reap_work(struct work_struct *work)
{
	zex_hostrpc_reap(container_of(work, struct zex_hostrpc_channel, reap_work));
}
