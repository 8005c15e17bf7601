/*
 * SPDX-License-Identifier: MIT
 * Copyright © 2026 The zex authors
 *
 * DOC: hostrpc.pml - the hostrpc sequence-number protocol and doorbell, for spin
 *
 * NSLOTS slots, each with a request word R (device writes, host reads), an
 * answer word A (host writes, device reads), the device-private owner word
 * W (free, or a holder's id, maybe marked collectable: async) and mirror M
 * (the last request the device published, so that a collector knows the
 * slot's state without reading R), and the host-private owner word T.
 * A slot is the host's turn while R != A; a call publishes R = M + 1 and is
 * answered when A == R. The words are 32-bit counters in C (31-bit
 * sequences, bit 31 the kind); here they are bits (a slot is republished
 * only once answered, so R and A never differ by more than one, and
 * equality is all the protocol compares), or counters modulo 3 with
 * -DSMALL_CALLS (see below), and "A moved since I read it" is the ghost
 * moved[] (in C, A != what was read: 2^31 moves away from an ABA).
 *
 * The host finds work through summary flags, one per group of GROUP slots:
 * a publisher stores R, then its group's flag; a server clears a flag
 * before it scans its group, and marks it again when it finds a slot that
 * needs the host held by another server. The doorbell: the host arms with
 * a flag and re-checks the summary flags before it sleeps; a device that
 * published takes the arming (at most one ring per arming) and rings; a
 * ring makes the kernel wake a sleeping host. With -DNO_DOORBELL the
 * device side has no doorbell (a GPU): its flag is a store with no order
 * after R, so the host may see the flag first (both orders are explored);
 * the servers never sleep, and every other pass looks at every slot
 * whatever the flags say (a full pass; in C every HOSTRPC_FULL_PASS-th).
 *
 * NCLIENTS device clients call forever, each call synchronous or
 * asynchronous (spin picks): acquire, fill, publish, then for a synchronous
 * call wait for the answer, use, free W; an asynchronous call marks W
 * collectable right after publishing, and a later acquirer takes it over
 * (CAS of W, then the check A == M under W) once it is answered. There is
 * no clean-up phase: the host never touches a slot between its answer and
 * the next request. With -DDEVICE_SLEEPS a client waiting may sleep in the
 * kernel instead (on the wait queue, arm the device side, re-check,
 * sleep); the kernel's delivery of a ring wakes only the sleepers whose
 * condition holds, then, if any sleeper is left, arms the device side
 * again on their behalf and re-checks them (the ringer took the arming).
 * With -DSMALL_CALLS (and -DNO_DOORBELL) a call may also be small: no
 * page, each lane's value in tagged words (K: the request's kind; L: its
 * words have all landed, which needs a fence only after a page call in
 * the slot); the server serves it only once L, and stores the tagged
 * answers (AL), then the answer word A; the calling lanes wait for AL,
 * not A, so the slot may be taken and published again before A is
 * stored (R is then A + 2: counters modulo 3).
 * With -DCALLS=K each client makes K calls; a monitor then checks, once
 * nothing can move, that every client finished and no request is left
 * unanswered. Memory is sequentially consistent here: the C code orders
 * the publish-then-check and arm-then-check pairs with seq_cst operations.
 *
 * Checked (tools/check/model.sh): safety (a page is never held by both
 * sides, nor by two parties of one side; a free slot is answered; no
 * invalid end state, which is how a lost wakeup or lost work shows),
 * liveness (every call completes under weak fairness), and mutants that
 * must be caught:
 *   MUTANT_PUBLISH_BEFORE_FILL      R stored before the page is written;
 *   MUTANT_SUMMARY_BEFORE_REQUEST   the group flag stored before R (with a
 *                                   doorbell);
 *   MUTANT_SUMMARY_CLEARED_LATE     a server clears the flag after its scan;
 *   MUTANT_NO_REMARK                a slot held by another server is skipped
 *                                   without marking its group again;
 *   MUTANT_MIRROR_AFTER_FLAG        M updated after R and the async mark;
 *   MUTANT_COLLECT_CHECK_BEFORE_TAKE  a collector checks A == M before it
 *                                   owns W (a reuse in between goes unseen);
 *   MUTANT_NO_RECHECK               a server sleeps without re-checking;
 *   MUTANT_DEVICE_NO_RECHECK        a client sleeps without re-checking;
 *   MUTANT_OWN_SLOT_WAITS_FOR_VALUE the own-slot wait waits for A == M as it
 *                                   read M (ABA: the slot is collected and
 *                                   reused meanwhile);
 *   MUTANT_DELIVERY_NO_REARM        the kernel's delivery wakes only
 *                                   satisfied sleepers and does not arm again
 *                                   for the others;
 *   MUTANT_NO_FULL_PASS             (NO_DOORBELL) the servers look at
 *                                   flagged groups only: a flag that came
 *                                   before its request loses the call.
 *   MUTANT_SMALL_NO_TAG_CHECK       (SMALL_CALLS) a small call served before
 *                                   its words landed;
 *   MUTANT_SMALL_UNFENCED_AFTER_PAGE  the first small call after a page call
 *                                   publishes without a fence;
 *   MUTANT_SMALL_ANSWER_OF_REREAD   the answer word stored from R re-read
 *                                   (maybe the next call's), not the
 *                                   request served.
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
#ifndef GROUP
#define GROUP 2		/* slots per summary flag: one flag for both */
#endif
#define NGROUPS ((NSLOTS + GROUP - 1) / GROUP)

/*
 * W's values. In C it carries the holder's id (threads of a process share
 * one), so a collector's CAS may see the same value again after a reuse:
 * here every holder has the same value, the worst case.
 */
#define HELD 1
#define ASYNC 2

/*
 * The sequence words: parities, or counters modulo 3 with small calls,
 * whose caller stops waiting at its own words, so that the slot's next
 * request may be published before the answer word of the last is stored
 * (R is then A + 2).
 */
#ifdef SMALL_CALLS
#define SEQ 3
#define seq_t byte
#else
#define SEQ 2
#define seq_t bit
#endif
#define NEXT(x) (((x) + 1) % SEQ)

seq_t R[NSLOTS];	/* device -> host: request sequence */
seq_t A[NSLOTS];	/* host -> device: answer sequence */
byte W[NSLOTS];		/* device-private: 0 free, HELD, or ASYNC (collectable) */
seq_t M[NSLOTS];	/* device-private: mirror of R */
bit T[NSLOTS];		/* host-private: a server holds the slot */
#ifdef SMALL_CALLS
bit K[NSLOTS];		/* the request's kind (bit 31 of R in C): 1 small, 0 page */
bit L[NSLOTS];		/* a small request's tagged words have all landed */
bit AL[NSLOTS];		/* a small answer's tagged words have all landed */
#endif
bit S[NGROUPS];		/* device -> host: summary flag of a group */
bit armed;		/* host side asleep or about to: wants a ring */
bit pending;		/* kernel: a ring to the host not yet consumed */
bit darmed;		/* device side wants a ring */
bit asleep[NCLIENTS];	/* kernel: a client sleeps in the wait ioctl */
byte wslot[NCLIENTS];	/* ghost: 1 + the slot whose A it watches, 0: none */
bit moved[NCLIENTS];	/* ghost: A[wslot] moved since the client read it */

byte dev_page[NSLOTS];
byte host_page[NSLOTS];
bit calling[NCLIENTS];
#ifdef CALLS
bit done[NCLIENTS];
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

/* hostrpc_doorbell_ring() toward the host: take its arming, ring. */
inline ring() {
	if
	:: atomic { armed == 1 -> armed = 0 };
	   pending = 1			/* kernel: zex_hostrpc_deliver() */
	:: else -> skip
	fi
}

/*
 * The kernel's delivery to the device side (zex_hostrpc_deliver()): wake
 * the sleepers whose condition (their slot's A moved) holds; if any is left
 * asleep, arm for them and re-check them (the re-check is a second step: a
 * move in between either sees the arming or is seen by the re-check).
 */
inline wake_satisfied() {
	d_step {
		for (k : 0 .. NCLIENTS - 1) {
			if
			:: asleep[k] && moved[k] -> asleep[k] = 0
			:: else -> skip
			fi
		};
		k = 0
	}
}

inline ring_device() {
#ifdef DEVICE_SLEEPS
	if
	:: atomic { darmed == 1 -> darmed = 0 };
	   wake_satisfied();
#ifndef MUTANT_DELIVERY_NO_REARM
	   if
	   :: d_step { (asleep[0] || asleep[NCLIENTS - 1]) -> darmed = 1 };
	      wake_satisfied()
	   :: else -> skip
	   fi
#endif
	:: else -> skip
	fi
#else
	skip			/* nobody on the device side sleeps */
#endif
}

/*
 * A device-side wait until A[s] moves (wait_moved() in C: polls of A, then
 * the kernel's wait ioctl). moved[id] was cleared when the client read A.
 */
inline wait_moved(s) {
#ifdef DEVICE_SLEEPS
	do
	:: moved[id] -> break
	:: !moved[id] ->
		asleep[id] = 1;		/* prepare_to_wait() */
		darmed = 1;
#ifndef MUTANT_DEVICE_NO_RECHECK
		if
		:: moved[id] -> asleep[id] = 0; break
		:: else -> skip
		fi;
#endif
		asleep[id] == 0		/* schedule() until woken */
	od
#else
	moved[id]
#endif
}

/* Read A[s] and start watching it move (the C code keeps the value read). */
inline watch(s) {
	d_step { wslot[id] = s + 1; moved[id] = 0 }
}

/* Done waiting: forget the ghost (fewer states). */
inline unwatch() {
	d_step { wslot[id] = 0; moved[id] = 0 }
}

proctype client(byte id)
{
	byte s, k, w;
#ifdef CALLS
	byte n;
#endif
call:
	calling[id] = 1;
retry:
	/*
	 * hostrpc_client_begin(): the caller's own slot first (its wave id
	 * modulo the slots). Free: take it. Collectable: take W over, then
	 * check under W whether the host answered; if so the slot is ours,
	 * else mark it collectable again and wait for the host's move on it
	 * (the host is fair; the device scheduler is not), then start over.
	 */
	s = id % NSLOTS;
	if
	:: atomic { W[s] == 0 -> W[s] = HELD }; goto got
#ifdef MUTANT_COLLECT_CHECK_BEFORE_TAKE
	:: W[s] == ASYNC && A[s] == M[s] ->
		/* planted: checked, then taken by CAS of the value seen */
		w = W[s];
		atomic { W[s] == w -> W[s] = HELD };
		w = 0;
		goto got
#else
	/*
	 * Take W over, read A once under it: answered, the slot is ours;
	 * not, mark it collectable again and wait for A to move from the value
	 * read. One step here: while W is held nobody else touches the slot's
	 * device words, and a host answer in between is the same as one just
	 * before the read.
	 */
	:: d_step { W[s] == ASYNC && A[s] == M[s] -> W[s] = HELD }; goto got
	:: d_step { W[s] == ASYNC && A[s] != M[s] -> wslot[id] = s + 1; moved[id] = 0 };
		{
#ifdef MUTANT_OWN_SLOT_WAITS_FOR_VALUE
			w = M[s];
			A[s] == w;		/* planted: one value of A */
			w = 0;
#else
			wait_moved(s);
#endif
			unwatch();
			goto retry
		}
#endif
	:: else -> skip
	fi;
	/*
	 * Not the own slot: any free slot, then any answered collectable one;
	 * nothing: look again (the C code relaxes between scans).
	 */
	s = 0;
	do
	:: s == NSLOTS -> goto retry
	:: s < NSLOTS ->
		if
		:: atomic { W[s] == 0 -> W[s] = HELD }; goto got
		:: d_step { W[s] == ASYNC && A[s] == M[s] -> W[s] = HELD }; goto got
		:: else -> skip
		fi;
		s++
	od;
got:
	/*
	 * A slot we hold is answered: R == A == M (invariant); with small
	 * calls, or the answer word of the last (small) call is on its way.
	 */
#ifdef SMALL_CALLS
	assert(M[s] == R[s] && (A[s] == R[s] || K[s] == 1));
#else
	assert(R[s] == A[s] && M[s] == R[s]);
#endif
	watch(s);	/* C: the answer to wait for is M + 1 */
#ifdef SMALL_CALLS
	if
	:: true -> goto small
	:: true -> K[s] = 0	/* a page call (a server reads K only under T with R != A) */
	fi;
#endif
#ifdef MUTANT_PUBLISH_BEFORE_FILL
	M[s] = NEXT(M[s]);
	R[s] = M[s];
	S[s / GROUP] = 1;
	page_device_enter(s); page_device_leave(s);
#else
	/* fill(): the page is the device's. */
	page_device_enter(s); page_device_leave(s);
	/* hostrpc_client_publish(): mirror, then request, then summary. */
#ifndef MUTANT_MIRROR_AFTER_FLAG
	M[s] = NEXT(M[s]);
#endif
#if defined(MUTANT_SUMMARY_BEFORE_REQUEST) || defined(NO_DOORBELL)
	/*
	 * With NO_DOORBELL the flag is a plain store after R's release: it
	 * may reach the host before R does. Both orders are explored.
	 */
	if
	:: S[s / GROUP] = 1; R[s] = NEXT(R[s])
#ifdef NO_DOORBELL
	:: R[s] = NEXT(R[s]); S[s / GROUP] = 1
#endif
	fi;
#else
	R[s] = NEXT(R[s]);
	S[s / GROUP] = 1;
#endif
#endif
#ifndef NO_DOORBELL
	ring();
#endif
	if
	:: true ->
#ifdef MUTANT_MIRROR_AFTER_FLAG
		M[s] = NEXT(M[s]);
#endif
		/* hostrpc_client_wait_answer(), then use the page. */
#ifdef SMALL_CALLS
		/*
		 * The last call's answer word may still move A: wait until A
		 * is our request, re-reading it at each move, as the C loop.
		 */
		do
		:: A[s] == M[s] -> break
		:: d_step { A[s] != M[s] -> moved[id] = 0 }; wait_moved(s)
		od;
#else
		wait_moved(s);
#endif
		unwatch();
		assert(A[s] == R[s]);
		page_device_enter(s); page_device_leave(s);
		/* hostrpc_client_end(): the slot is free at once. */
		d_step { W[s] = 0; s = 0 }
	:: true ->
		/* hostrpc_client_end_async(): collectable once published. */
		W[s] = ASYNC;
#ifdef MUTANT_MIRROR_AFTER_FLAG
		M[s] = NEXT(M[s]);
#endif
		s = 0
	fi;
#ifdef SMALL_CALLS
	goto finished;
small:
	/*
	 * hostrpc_client_call_small() (no doorbell): the lanes store their
	 * tagged words with no fence; they are in flight (the device still
	 * "holds" the page) until they land. After a page call the slot's
	 * words hold plain data that a tag could match, so that first small
	 * call publishes with a fence: its words land before R.
	 */
	page_device_enter(s);
	AL[s] = 0;
	if
	:: K[s] == 0 ->
#ifdef MUTANT_SMALL_UNFENCED_AFTER_PAGE
		/* planted: no fence; old plain data may match the tags */
		if
		:: L[s] = 1
		:: L[s] = 0
		fi
#else
		L[s] = 1; page_device_leave(s)
#endif
	:: K[s] == 1 -> L[s] = 0
	fi;
	M[s] = NEXT(M[s]);
	if
	:: S[s / GROUP] = 1; d_step { R[s] = NEXT(R[s]); K[s] = 1 }
	:: d_step { R[s] = NEXT(R[s]); K[s] = 1 }; S[s / GROUP] = 1
	fi;
	/* The words land, if they had not yet. */
	if
	:: dev_page[s] == 1 -> d_step { L[s] = 1; page_device_leave(s) }
	:: else -> skip
	fi;
	/* Each lane polls its own words for the answer's tag, then uses them. */
	AL[s] == 1;
	unwatch();
	page_device_enter(s); page_device_leave(s);
	d_step { W[s] = 0; s = 0 };
finished:
#endif
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

/*
 * hostrpc_server_answer(): under T, re-read; a request not yet answered
 * is operated on and answered. One step: under T nobody else moves the
 * slot (the device waits while R != A), and the page's hand-over is
 * checked on the device side's steps, which are not atomic.
 */
inline answer(s) {
	d_step {
		if
		:: R[s] != A[s] ->
			assert(dev_page[s] == 0 && host_page[s] == 0);
			A[s] = R[s];
			for (k : 0 .. NCLIENTS - 1) {
				if
				:: wslot[k] == s + 1 -> moved[k] = 1
				:: else -> skip
				fi
			};
			k = 0
		:: else -> skip
		fi
	}
}

#ifdef SMALL_CALLS
/* A = @v, and every client watching A[s] sees it move. */
inline move_answer(s, v) {
	d_step {
		A[s] = v;
		for (k : 0 .. NCLIENTS - 1) {
			if
			:: wslot[k] == s + 1 -> moved[k] = 1
			:: else -> skip
			fi
		};
		k = 0
	}
}
#endif

#ifdef SMALL_CALLS
/*
 * A small request @r whose tagged words all landed: copied out, operated
 * on; the tagged answers, then the answer word (the slot looks answered
 * only once the host is done with its page). The calling lanes stop at
 * their words, so the slot may be taken and published again before the
 * answer word: it is @r, the request served.
 */
inline answer_small(s, r) {
	d_step { page_host_enter(s); AL[s] = 1; page_host_leave(s) };
#ifdef MUTANT_SMALL_ANSWER_OF_REREAD
	move_answer(s, R[s])	/* planted: R re-read, maybe the next request */
#else
	move_answer(s, r)
#endif
}
#endif

/*
 * A slot whose R differs from A: take T and answer under it, or, held by
 * another server, mark the group again.
 */
inline serve_slot(s, g) {
	if
	:: atomic { T[s] == 0 -> T[s] = 1 };
#ifdef SMALL_CALLS
	   /*
	    * One read of R (with its kind bit K) decides, as in C; under T
	    * with R != A the device changes neither, and L only lands.
	    */
	   if
#ifndef MUTANT_SMALL_NO_TAG_CHECK
	   :: K[s] == 1 && R[s] != A[s] && L[s] == 0 ->
		/* words not all there: leave it for a later pass */
		S[g] = 1
	   :: d_step { K[s] == 1 && R[s] != A[s] && L[s] == 1 -> r = R[s] };
		answer_small(s, r)
#else
	   :: d_step { K[s] == 1 && R[s] != A[s] -> r = R[s] }; answer_small(s, r)
#endif
	   :: K[s] == 0 && R[s] != A[s] -> answer(s)
	   :: R[s] == A[s] -> skip
	   fi;
#else
	   answer(s);		/* re-read under T */
#endif
#ifdef DEVICE_SLEEPS
	   T[s] = 0;
	   ring_device()
#else
	   T[s] = 0
#endif
	:: else ->
#ifndef MUTANT_NO_REMARK
	   S[g] = 1		/* someone holds it: look again */
#else
	   skip
#endif
	fi
}

proctype server(byte id)
{
	byte s, g, k;
#ifdef SMALL_CALLS
	byte r;
#endif
serve:
	/* hostrpc_server_handle(): each flagged group: clear, then scan. */
	do
	:: g == NGROUPS -> d_step { g = 0; s = 0 }; break
	:: g < NGROUPS && S[g] == 0 -> g++
	:: g < NGROUPS && S[g] == 1 ->
#ifndef MUTANT_SUMMARY_CLEARED_LATE
		S[g] = 0;
#endif
		s = g * GROUP;
		do
		:: s == g * GROUP + GROUP || s == NSLOTS -> break
		:: s < g * GROUP + GROUP && s < NSLOTS && R[s] == A[s] -> s++
		:: s < g * GROUP + GROUP && s < NSLOTS && R[s] != A[s] -> serve_slot(s, g); s++
		od;
#ifdef MUTANT_SUMMARY_CLEARED_LATE
		S[g] = 0;
#endif
		g++
	od;
#ifdef NO_DOORBELL
	/*
	 * No doorbell: the server polls, and every other pass looks at every
	 * slot whatever the flags say (in C, every HOSTRPC_FULL_PASS-th), so
	 * a request whose flag came first and was taken is still found.
	 */
#ifndef MUTANT_NO_FULL_PASS
	s = 0;
	do
	:: s == NSLOTS -> s = 0; break
	:: s < NSLOTS && R[s] == A[s] -> s++
	:: s < NSLOTS && R[s] != A[s] -> serve_slot(s, s / GROUP); s++
	od;
#endif
	goto serve
#endif
	/* hostrpc_server_arm(): arm, re-check the flags, only then sleep. */
	armed = 1;
#ifndef MUTANT_NO_RECHECK
	g = 0;
	do
	:: g < NGROUPS && S[g] == 1 -> g = 0; goto serve
	:: g < NGROUPS && S[g] == 0 -> g++
	:: g == NGROUPS -> g = 0; break
	od;
#endif
#ifdef CALLS
end_asleep:
#endif
	atomic { pending == 1 -> pending = 0 };
	goto serve
}

#ifdef CALLS
active proctype quiescence()
{
	byte k;

	timeout ->
	d_step {
		for (k : 0 .. NCLIENTS - 1) { assert(done[k] == 1) };
		for (k : 0 .. NSLOTS - 1) { assert(R[k] == A[k]) };
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

/* Every call of every client completes (checked with weak fairness). */
#if NCLIENTS == 1
ltl calls_complete { [] (calling[0] -> <> !calling[0]) }
#else
ltl calls_complete { [] ((calling[0] -> <> !calling[0]) && (calling[1] -> <> !calling[1])) }
#endif
