# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: verdict.sh - one verdict from many test layers (sourced)
#
# Shared by check.sh and stress.sh. Every layer prints lines
# "RESULT <layer> passed=N failed=N skipped=N"; tally() keeps their counts
# in $logs/tally, and verdict() prints the summary line
# "N passed, N failed, N skipped" and returns non-zero on any failure, or
# when no layer reported at all. Before it, verdict() repeats what a reader
# of the output's last lines needs: each layer's time and every
# "FAIL [layer] what" line the layers printed (a CI log may keep only its
# tail). Expects $logs to name a folder.

: > "$logs/tally"
: > "$logs/failures"
: > "$logs/times"

tally() {	# reads RESULT lines on stdin, echoes everything
	local line re='^RESULT .* passed=([0-9]+) failed=([0-9]+) skipped=([0-9]+)$'
	while IFS= read -r line; do
		echo "$line"
		if [[ $line =~ $re ]]; then
			echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}" >> "$logs/tally"
		elif [[ $line == "FAIL ["* ]]; then
			echo "$line" >> "$logs/failures"
		fi
	done
}

# Layers may run side by side: each keeps its own start time.
layer_start() { echo "=== $1"; date +%s > "$logs/t0-$1"; }
layer_end() {
	local took=$(( $(date +%s) - $(cat "$logs/t0-$1") ))
	echo "=== $1 took ${took}s"
	echo "$1 ${took}s" >> "$logs/times"
}

# One named check from a command's exit status (its output kept in a log).
check_cmd() {
	local layer=$1 name=$2
	shift 2
	if "$@" >"$logs/$name.log" 2>&1; then
		echo "RESULT $layer passed=1 failed=0 skipped=0"
	else
		echo "FAIL [$layer] $name"
		tail -30 "$logs/$name.log" | sed 's/^/    /'
		echo "RESULT $layer passed=0 failed=1 skipped=0"
	fi
}

verdict() {
	local p f s passed=0 failed=0 skipped=0
	while read -r p f s; do
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	done < "$logs/tally"
	[ -s "$logs/tally" ] || failed=$((failed + 1))
	echo "=== times: $(paste -sd' ' "$logs/times")"
	if [ -s "$logs/failures" ]; then
		echo "=== failures ($(wc -l < "$logs/failures")):"
		head -40 "$logs/failures"
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
}
