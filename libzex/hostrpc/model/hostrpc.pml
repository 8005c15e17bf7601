/*
 * SPDX-License-Identifier: MIT
 * Copyright © 2026 The zex authors
 *
 * DOC: hostrpc.pml - the hostrpc slot protocol and doorbell, for spin
 *
 * Seed 003's protocol over NSLOTS slots, each with four bits: G (device
 * writes, host reads), W (device-private), H (host writes, device reads),
 * T (host-private); plus the doorbell: the host arms interrupts with a flag
 * in the shared region and re-checks for work before it sleeps; a device
 * that published work rings only if it can take the arming (at most one
 * ring per arming), and a ring makes the kernel wake a sleeping host.
 *
 * NCLIENTS device clients make calls forever, each synchronous or
 * asynchronous (spin picks): collect, acquire, fill, publish, then for a
 * synchronous call wait for H, use, clear G; the slot is then left to the
 * collection of a later call (lazy release), as an asynchronous call's is
 * right after publishing. Collection (by any client) clears G of an
 * answered async call and frees (clears W of) a slot whose H the host has
 * cleared. NSERVERS host threads serve forever (operate on G & !H, clean
 * up !G & H, ring the device side if it is armed, else arm, re-check,
 * sleep). With -DDEVICE_SLEEPS a client waiting for H may also sleep:
 * get on the wait queue, arm the device side, re-check, sleep until a
 * host's ring (the kernel's wait ioctl). With -DCALLS=K each client makes
 * K calls and stops; a monitor then checks, once nothing can move, that
 * every client finished and no slot is left owed to the host. That is how
 * a caller stranded in a wait shows when the others have stopped calling
 * (a slot it waits on was freed, taken, published and answered by others
 * meanwhile, and only the stranded caller could collect it). Memory is
 * sequentially
 * consistent here: the C code orders the publish-then-check and
 * arm-then-check pairs with seq_cst operations.
 *
 * Checked (tools/check/model.sh):
 *   safety   assertions (a page is never held by both sides, nor by two
 *            parties of one side; a free slot has G and H clear) and no
 *            invalid end state: no deadlock, which is how a lost wakeup
 *            shows (everyone asleep or waiting for an answer no one gives);
 *   liveness every call of every client completes and every slot left to
 *            collection is freed, under weak fairness (ltl below);
 *   mutants  each -D switch plants a known bug; spin must find each:
 *            MUTANT_CLEAR_W_BEFORE_G (the seed's ordering warning),
 *            MUTANT_NO_RECHECK (sleep without re-checking after arming),
 *            MUTANT_NO_RING_ON_RELEASE (clearing G without a ring: found
 *            by this model in the first draft of the protocol),
 *            MUTANT_PUBLISH_BEFORE_FILL (G set before the page is written),
 *            MUTANT_FREE_BEFORE_H_CLEAR (collection frees a released slot
 *            without waiting for the host's clear),
 *            MUTANT_DEVICE_NO_RECHECK (with DEVICE_SLEEPS: a client sleeps
 *            for H without re-checking after arming),
 *            MUTANT_OWN_SLOT_WAITS_FOR_H (with CALLS and ASYNC: a client
 *            whose own slot is on its way back waits for H to clear,
 *            instead of for the host's move: it misses a recycling of the
 *            slot and waits for ever).
 *
 * Each transition names the C function of libzex/hostrpc that performs it.
 */

#ifndef NSLOTS
#define NSLOTS 2
#endif
#ifndef NCLIENTS
#define NCLIENTS 2
#endif
#ifndef NSERVERS
#define NSERVERS 2
#endif

bit G[NSLOTS];		/* device -> host: a call is published */
bit W[NSLOTS];		/* device-private: slot owned by a client */
bit H[NSLOTS];		/* host -> device: the answer is ready */
bit T[NSLOTS];		/* host-private: slot owned by a server thread */
bit async_[NSLOTS];	/* device-private: W carries the collectable flag */
bit armed;		/* host -> device: interrupts wanted */
bit pending;		/* kernel: a ring not yet consumed (eventfd count) */
bit darmed;		/* device side -> host: a device waiter wants a ring */
bit dwoken[NCLIENTS];	/* kernel: a sleeping client was woken */

byte dev_page[NSLOTS];	/* parties of the device side touching the page */
byte host_page[NSLOTS];	/* parties of the host side touching the page */
bit calling[NCLIENTS];	/* a client is inside a call */
bit left[NSLOTS];	/* ghost: a slot left to collection, not yet freed */
#ifdef CALLS
bit done[NCLIENTS];	/* ghost: a client made its CALLS calls */
#endif

inline page_device_enter(s) {
	d_step {
		assert(host_page[s] == 0 && dev_page[s] == 0);
		dev_page[s]++
	}
}
inline page_device_leave(s) { d_step { dev_page[s]-- } }
inline page_host_enter(s) {
	d_step {
		assert(dev_page[s] == 0 && host_page[s] == 0);
		host_page[s]++
	}
}
inline page_host_leave(s) { d_step { host_page[s]-- } }

/* hostrpc_doorbell_ring(): take the host's arming if it is there, ring. */
inline ring() {
	if
	:: atomic { armed == 1 -> armed = 0 };
	   pending = 1			/* kernel: zex_hostrpc_deliver() */
	:: else -> skip
	fi
}

/* The same toward the device side: the kernel wakes every sleeper. */
inline ring_device() {
	if
	:: atomic { darmed == 1 -> darmed = 0 };
	   d_step { for (k : 0 .. NCLIENTS - 1) { dwoken[k] = 1 }; k = 0 }
	:: else -> skip
	fi
}

/*
 * hostrpc_client_collect(): every collectable slot that can move is taken
 * over (the CAS of W from "id | ASYNC" to the collector's id) and moved
 * on: an answered async call -> clear G, ring, collectable again; a slot
 * the host has cleared -> free. One deterministic step here: no one else
 * may touch a slot's W or G while a collector holds it, and the host does
 * not move H in these states, so the order of the slots does not matter;
 * the clear-G-then-ring sequence itself is checked step by step in the
 * synchronous release.
 */
inline collect() {
	d_step {
		c = 0;
		do
		:: c == NSLOTS -> c = 0; break	/* dead locals are 0: fewer states */
		:: c < NSLOTS ->
			if
			:: async_[c] == 1 && G[c] == 1 && H[c] == 1 ->
				G[c] = 0;
				if
				:: armed == 1 -> armed = 0; pending = 1
				:: else -> skip
				fi
			:: async_[c] == 1 && G[c] == 0 && H[c] == 0 ->
				async_[c] = 0; W[c] = 0; left[c] = 0
#ifdef MUTANT_FREE_BEFORE_H_CLEAR
			:: async_[c] == 1 && G[c] == 0 && H[c] == 1 ->
				async_[c] = 0; W[c] = 0; left[c] = 0
#endif
			:: else -> skip
			fi;
			c++
		od
	}
}

/*
 * wait_h(): spin until H[s] == v; with DEVICE_SLEEPS a client may instead
 * sleep in the kernel (zex_hostrpc_wait(): on the queue, arm, re-check).
 */
inline wait_h(s, v) {
#ifdef DEVICE_SLEEPS
	do
	:: H[s] == v -> break
	:: H[s] != v ->
		dwoken[id] = 0;		/* prepare_to_wait() */
		darmed = 1;
#ifndef MUTANT_DEVICE_NO_RECHECK
		if
		:: H[s] == v -> break
		:: else -> skip
		fi;
#endif
		dwoken[id] == 1		/* schedule() until woken */
	od
#else
	H[s] == v
#endif
}

/*
 * The own-slot wait of hostrpc_client_acquire(): the slot is on its way
 * back (released, H still set), so it is the host's turn; wait for the
 * host's move (G == H), whichever it is, then re-read everything (rescan):
 * the slot may have been freed, taken and published again meanwhile. With
 * DEVICE_SLEEPS as the kernel does it for DRM_ZEX_HOSTRPC_WAIT_HOST_TURN:
 * on the queue, arm, re-check, sleep until a ring, re-check.
 */
inline wait_host_turn(s) {
#ifdef MUTANT_OWN_SLOT_WAITS_FOR_H
	wait_h(s, 0)
#else
#ifdef DEVICE_SLEEPS
	do
	:: G[s] == H[s] -> break
	:: G[s] != H[s] ->
		dwoken[id] = 0;		/* prepare_to_wait() */
		darmed = 1;
		if
		:: G[s] == H[s] -> break
		:: else -> skip
		fi;
		dwoken[id] == 1		/* schedule() until woken */
	od
#else
	G[s] == H[s]
#endif
#endif
}

proctype client(byte id)
{
	byte s, c, k;
#ifdef CALLS
	byte n;
#endif
call:
	calling[id] = 1;
rescan:
	collect();
	/*
	 * hostrpc_client_acquire(): CAS W from 0 to 1, scanning from the
	 * caller's own slot (its wave id modulo the slots); after a full
	 * scan finds nothing, collect and scan again. The device scheduler
	 * owes no fairness, so progress rests on this: with at least as many
	 * slots as callers, a caller's own slot is never taken by another
	 * synchronous caller, so it is free or on its way back (released, the
	 * host to clear H) when it calls. On its way back, the caller waits
	 * for the host (which is fair) instead of taking another's slot.
	 */
	s = id % NSLOTS;
	if
	:: async_[s] == 1 && G[s] == 0 ->
		wait_host_turn(s);
		goto rescan
	:: else -> skip
	fi;
	do
	:: atomic { W[s] == 0 -> W[s] = 1 }; break
	:: else ->
		s = (s + 1) % NSLOTS;
		if
		:: s == id % NSLOTS -> goto rescan
		:: else -> skip
		fi
	od;
	/* A slot whose W is free has G and H clear (invariant). */
	assert(G[s] == 0 && H[s] == 0);
	/* fill(): the page is the device's. */
	page_device_enter(s); page_device_leave(s);
#ifdef MUTANT_PUBLISH_BEFORE_FILL
	G[s] = 1;
	page_device_enter(s); page_device_leave(s);
#else
	/* hostrpc_client_publish(): set G after the page is written. */
	G[s] = 1;
#endif
	/* hostrpc_client_publish(): ring if the host is asleep. */
	ring();
	if
	:: true ->
		/* hostrpc_client_invoke(): wait for H, use the page. */
		wait_h(s, 1);
		page_device_enter(s); page_device_leave(s);
#ifdef MUTANT_CLEAR_W_BEFORE_G
		/* The seed's warning: clearing W first frees a slot whose G is set. */
		W[s] = 0;
		G[s] = 0;
#else
		/* hostrpc_client_release(): clear G — which gives the host work
		 * (clear H), so ring it too; the slot goes to collection. */
		G[s] = 0;
#ifndef MUTANT_NO_RING_ON_RELEASE
		ring()
#endif
#endif
#ifdef ASYNC
	:: true ->
		/* hostrpc_client_invoke_async(): returns once published. */
		skip
#endif
	fi;
	/* mark_collectable(): a later call's collection finishes the slot. */
	d_step { async_[s] = 1; left[s] = 1; s = 0 };
	calling[id] = 0;
#ifdef CALLS
	n++;
	if
	:: n == CALLS -> done[id] = 1
	:: else -> goto call
	fi
#else
	goto call
#endif
}

proctype server(byte id)
{
	byte s, k;
serve:
	/* hostrpc_server_find_work(): a slot with G != H needs this side. */
	s = 0;
	do
	:: s == NSLOTS -> break
	:: s < NSLOTS && G[s] == H[s] -> s++
	:: s < NSLOTS && G[s] != H[s] ->
		/* CAS T from 0 to 1, then re-read G and H under T. */
		if
		:: atomic { T[s] == 0 -> T[s] = 1 };
		   if
		   :: G[s] == 1 && H[s] == 0 ->
			/* hostrpc_server_operate(): the page is the host's. */
			page_host_enter(s); page_host_leave(s);
			H[s] = 1		/* publish the answer */
		   :: G[s] == 0 && H[s] == 1 ->
			/* hostrpc_server_clear(): the device is done. */
			page_host_enter(s); page_host_leave(s);
			H[s] = 0
		   :: else -> skip
		   fi;
		   T[s] = 0;
		   /* H changed (or not): ring the device side if it is armed. */
		   ring_device()
		:: else -> skip		/* another server holds it */
		fi;
		s++
	od;
	/*
	 * hostrpc_server_wait(): arm, re-check, only then sleep. A server that
	 * just did work finds more (or none) here too.
	 */
	armed = 1;
#ifndef MUTANT_NO_RECHECK
	s = 0;
	do
	:: s < NSLOTS && G[s] != H[s] -> goto serve
	:: s < NSLOTS && G[s] == H[s] -> s++
	:: s == NSLOTS -> break
	od;
#endif
	/* The kernel: poll()/read() on the channel fd sleeps until a ring. */
#ifdef CALLS
end_asleep:	/* a valid end once the clients stopped: the monitor judges */
#endif
	atomic { pending == 1 -> pending = 0 };
	goto serve
}

#ifdef CALLS
/*
 * Once nothing can move: every client finished its calls (none is stranded
 * in a wait) and no slot is owed a move by the host (no lost wakeup).
 */
active proctype quiescence()
{
	byte k;

	timeout ->
	d_step {
		for (k : 0 .. NCLIENTS - 1) { assert(done[k] == 1) };
		for (k : 0 .. NSLOTS - 1) { assert(G[k] == H[k]) };
		k = 0
	}
}
#endif

init {
	byte i;
	atomic {
		for (i : 0 .. NCLIENTS - 1) { run client(i) }
		for (i : 0 .. NSERVERS - 1) { run server(i) }
	}
}

/*
 * Every call of every client completes, and every slot left to collection
 * is freed (checked with weak fairness).
 */
ltl calls_complete { [] ((calling[0] -> <> !calling[0]) && (calling[1] -> <> !calling[1]) &&
			 (left[0] -> <> !left[0]) && (left[1] -> <> !left[1])) }
