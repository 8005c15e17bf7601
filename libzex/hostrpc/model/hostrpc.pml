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
 * NCLIENTS device clients make synchronous calls forever (fill, publish,
 * wait, use, clear G, wait !H, clear W); NSERVERS host threads serve
 * forever (operate on G & !H, clean up !G & H, else arm, re-check, sleep).
 * Memory is sequentially consistent here: the C code must order the
 * publish-then-check and arm-then-check pairs with seq_cst fences.
 *
 * Checked (tools/check/model.sh):
 *   safety   assertions (a page is never held by both sides, nor by two
 *            parties of one side) and no invalid end state: no deadlock,
 *            which is how a lost wakeup shows (every host asleep, every
 *            client waiting for an answer that no one will give);
 *   liveness every call of every client completes, under weak fairness
 *            (ltl below);
 *   mutants  each -D switch plants a known bug; spin must find each:
 *            MUTANT_CLEAR_W_BEFORE_G (the seed's ordering warning),
 *            MUTANT_NO_RECHECK (sleep without re-checking after arming),
 *            MUTANT_NO_RING_ON_RELEASE (clearing G without a ring: found
 *            by this model in the first draft of the protocol),
 *            MUTANT_PUBLISH_BEFORE_FILL (G set before the page is written).
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
bit armed;		/* host -> device: interrupts wanted */
bit pending;		/* kernel: a ring not yet consumed (eventfd count) */

byte dev_page[NSLOTS];	/* parties of the device side touching the page */
byte host_page[NSLOTS];	/* parties of the host side touching the page */
bit calling[NCLIENTS];	/* a client is inside a call */

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

/* hostrpc_doorbell_ring(): take the arming if it is there, then ring. */
inline ring() {
	if
	:: atomic { armed == 1 -> armed = 0 };
	   pending = 1			/* kernel: zex_hostrpc_ring_ioctl() */
	:: else -> skip
	fi
}

proctype client(byte id)
{
	byte s;
call:
	calling[id] = 1;
	/*
	 * hostrpc_client_acquire(): CAS W from 0 to 1, scanning from the
	 * caller's own slot (its wave id modulo the slots). The device
	 * scheduler owes no fairness, so progress rests on this: with at least
	 * as many slots as callers, a caller's own slot is free when it calls.
	 */
	s = id % NSLOTS;
	do
	:: atomic { W[s] == 0 -> W[s] = 1 }; break
	:: else -> s = (s + 1) % NSLOTS	/* CAS failed: the next slot */
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
	/* hostrpc_client_wait(): spin (or block) until H. */
	H[s] == 1;
	/* use(): the page is the device's again. */
	page_device_enter(s); page_device_leave(s);
#ifdef MUTANT_CLEAR_W_BEFORE_G
	/* The seed's warning: clearing W first frees a slot whose G is set. */
	W[s] = 0;
	G[s] = 0;
	H[s] == 0;
#else
	/* hostrpc_client_release(): clear G — which gives the host work (clear
	 * H), so ring it too — wait for the host to clear H, only then give
	 * the slot back by clearing W. */
	G[s] = 0;
#ifndef MUTANT_NO_RING_ON_RELEASE
	ring();
#endif
	H[s] == 0;
	W[s] = 0;
#endif
	calling[id] = 0;
	goto call
}

proctype server(byte id)
{
	byte s;
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
		   T[s] = 0
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
	atomic { pending == 1 -> pending = 0 };
	goto serve
}

init {
	byte i;
	atomic {
		for (i : 0 .. NCLIENTS - 1) { run client(i) }
		for (i : 0 .. NSERVERS - 1) { run server(i) }
	}
}

/* Every call of every client completes (checked with weak fairness). */
ltl calls_complete { [] ((calling[0] -> <> !calling[0]) && (calling[1] -> <> !calling[1])) }
