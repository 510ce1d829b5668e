#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run rue's guest tests (all selftests/rue_*.sh, or those named) inside a
# test guest, one after the other, each under a time limit.  Their TAP
# goes to stdout and to $RUE_OUT/results.tap, which scripts/check reads.
#
#   scripts/vm-run -k 6.12 -- selftests/run.sh [TEST...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${RUE_OUT:-/tmp}
limit=${RUE_TEST_TIMEOUT:-900}
results=$out/results.tap
: >"$results"

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("$here"/rue_*.sh)

for t in "${tests[@]}"; do
	[ -e "$t" ] || t=$here/$t
	[ -e "$t" ] || t=$here/$(basename "$t" .sh).sh
	name=$(basename "$t" .sh)
	echo "# ===== $name ($(uname -r))" | tee -a "$results"
	start=$(date +%s)
	timeout -k 10 "$limit" bash "$t" 2>&1 | tee -a "$results"
	rc=${PIPESTATUS[0]}
	echo "# ===== $name: exit $rc in $(($(date +%s) - start)) s" | tee -a "$results"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "not ok 0 $name: timed out after ${limit}s" | tee -a "$results"
	elif ! sed -n "/===== $name (/,\$p" "$results" | grep -q '^1\.\.'; then
		echo "not ok 0 $name: ended without a TAP plan (exit $rc)" | tee -a "$results"
	fi
	# Each suite starts from a clean slate.
	rmmod rue 2>/dev/null
	rmmod rdma_rxe 2>/dev/null
done

# A kernel with kmemleak (the sanitizer kernel): what is allocated and
# no longer referenced anywhere after all that.  kmemleak reports an
# object on the second scan that finds it unreferenced; its report names
# the allocating backtrace, symbols resolved while it is read (so rue's
# own frames show as addresses once rue is unloaded: the suite logs say
# which ran).
leaks=/sys/kernel/debug/kmemleak
if [ -w "$leaks" ]; then
	echo "# ===== kmemleak" | tee -a "$results"
	echo scan >"$leaks"; sleep 6; echo scan >"$leaks"
	report=$(cat "$leaks")
	n=$(grep -c '^unreferenced object' <<<"$report")
	if [ "$n" = 0 ]; then
		echo "ok 0 kmemleak: nothing unreferenced" | tee -a "$results"
	else
		echo "not ok 0 kmemleak: $n objects unreferenced" | tee -a "$results"
		head -n 200 <<<"$report" | sed 's/^/# /' | tee -a "$results"
	fi
fi
exit 0
