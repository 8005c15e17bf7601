// SPDX-License-Identifier: MIT
/*
 * DOC: link_resolve.c - the modules a module's imports are found in, transitively
 *
 * A work list of the units taken so far: the first unit, then each unit
 * some taken unit's import was found in. An import is resolved by a
 * taken unit that exports it, else by the first candidate that does,
 * which is then taken. A name no candidate exports is the failure.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "compute/link_resolve.h"

static bool exports(const struct zex_link_unit *u, const char *name)
{
	uint32_t i;

	for (i = 0; i < u->num_links; i++)
		if (!u->links[i].import && !strcmp(u->links[i].name, name))
			return true;
	return false;
}

/**
 * zex_link_resolve - the candidates the first unit needs
 * @units: the module (first), then the candidates, in order of preference.
 * @num: entries in @units (at least 1).
 * @needed: receives the indices of the units needed (never 0), in the
 *	order they were found; room for @num - 1.
 * @num_needed: how many.
 * @missing: on -ENOLINK, the first name nothing exports (a name in @units).
 *
 * Return: 0, or -ENOLINK.
 */
int zex_link_resolve(const struct zex_link_unit *units, uint32_t num, uint32_t *needed,
		     uint32_t *num_needed, const char **missing)
{
	/* taken[0] is unit 0; taken[1..n] are @needed. */
	uint32_t n = 0, done, i, j, c;

	for (done = 0; done <= n; done++) {
		const struct zex_link_unit *u = &units[done ? needed[done - 1] : 0];

		for (i = 0; i < u->num_links; i++) {
			const char *name = u->links[i].name;
			bool found = exports(&units[0], name);

			if (!u->links[i].import)
				continue;
			for (j = 0; j < n && !found; j++)
				found = exports(&units[needed[j]], name);
			for (c = 1; c < num && !found; c++) {
				if (!exports(&units[c], name))
					continue;
				needed[n++] = c;
				found = true;
			}
			if (!found) {
				*missing = name;
				return -ENOLINK;
			}
		}
	}
	*num_needed = n;
	return 0;
}
