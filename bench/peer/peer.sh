#!/usr/bin/env bash
# peer.sh: lsfc and Slurm 22.05 measured one after the other on this
# machine, by the same shell loops, and printed side by side.
#
# lsfc runs a one-host tree of 64 slots (the host named like this machine)
# under `lsfc serve`, built from this checkout with its job starter; the
# LSF command names run `lsfc-client`, the LSF commands' own build. Slurm
# runs one node of 64 CPUs on loopback from Debian's packages (slurmctld,
# slurmd, slurm-client, munge; installed with apt-get when missing), in a
# private network and pid namespace when unshare allows it. Each side gets
# the same rounds:
#
#   A   500 submissions from one loop, the jobs (`true`) running meanwhile
#   B   2,000 submissions from 8 parallel loops, jobs running
#   A2  500 from one loop, nothing running (queue inactive / partition down)
#   B2  2,000 from 8 loops, nothing running
#   C   2,000 jobs from 8 loops: first submission until all have ended
#   E   2,000 jobs queued, then released: until all have ended
#   D   the what-if of one requirement: `lsfc resreq match` against the
#       tree and the daemon's hosts, `sbatch --test-only` (median of 100)
#   D2  the same what-if answered by the daemon from its live state:
#       `bhosts -R`, against `sbatch --test-only` again (median of 100)
#   P   process start: `lsfc version`, `sbatch --version` (median of 50)
#   P2  the LSF commands' own build: `lsfc-client version` (median of 50)
#
# then the daemon's resident memory (VmRSS, VmHWM) after the 9,000
# submissions of each round (27,000 with three rounds) and its CPU time.
#
# Usage (as root for the Slurm side):
#
#   bench/peer/peer.sh [lsfc|slurm|both]     default both
#
# Environment:
#   PEER_REPS    rounds (default 3); the table shows the median of each row
#   PEER_SCALE   percent of every loop's size (default 100)
#   PEER_DIR     working directory (default: a new one under /tmp)
#   PEER_KEEP    1: keep the working directory
#   PEER_PORT    Slurm's first TCP port (default 16817; +0..+2, srun +3..+102)
#   PEER_NETNS   0: stay in this machine's network namespace
#   PEER_WAIT    bound in seconds on any wait (default 900)
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sides=${1:-both}
case "$sides" in lsfc | slurm | both) ;; *)
	echo "usage: $0 [lsfc|slurm|both]" >&2
	exit 2
	;;
esac
reps=${PEER_REPS:-3}
scale=${PEER_SCALE:-100}
wait_max=${PEER_WAIT:-900}

say() { printf '[peer %s] %s\n' "$(date +%T)" "$*" >&2; }
now() { local t=$EPOCHREALTIME; printf '%s' "${t/,/.}"; }
minus() { LC_ALL=C awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
per() { LC_ALL=C awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
median() {
	printf '%s\n' "$@" | grep -E '^[0-9.]+$' | LC_ALL=C sort -g | awk '{ v[NR] = $1 }
		END { if (NR == 0) { print "-"; exit } if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
sized() { echo $(($1 * scale / 100)); }
# until_ok SECONDS CMD...: run CMD every 0.2 s until it succeeds.
until_ok() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}
# median_ms N CMD...: median wall time of N runs of CMD, in milliseconds.
median_ms() {
	local n=$1 i a b
	shift
	local -a ms=()
	for ((i = 0; i < n; i++)); do
		a=$(now)
		"$@" >/dev/null 2>&1
		b=$(now)
		ms+=("$(LC_ALL=C awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b - a) * 1000 }')")
	done
	median "${ms[@]}"
}
# vm PID KEY: a field of /proc/PID/status in kB.
vm() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null; }
# cpu_s PID: user and system seconds of a process.
cpu_s() { sed 's/^.*) //' "/proc/$1/stat" | awk -v t="$(getconf CLK_TCK)" '{ printf "%.1f", ($12 + $13) / t }'; }

# ---------------------------------------------------------------------
# working directory and binaries (built before entering a namespace)

if [ -z "${PEER_INSIDE:-}" ]; then
	work=${PEER_DIR:-$(mktemp -d /tmp/lsfc-peer.XXXXXX)}
	mkdir -p "$work"/{bin,lsfc,slurm} || exit 1
	if [ "$sides" != slurm ]; then
		say "building lsfc and its job starter from $repo"
		# Every command of the repository (lsfc, lsfc-job ...), and the LSF
		# commands' own build when the sources have one, as the README
		# installs them.
		(cd "$repo" && go build -o "$work/bin" ./cmd/...) || exit 1
		client=lsfc
		if grep -qs '^//go:build.*lsfclient' "$repo"/cmd/lsfc/*.go; then
			(cd "$repo" && go build -tags lsfclient,netgo,osusergo -o "$work/bin/lsfc-client" ./cmd/lsfc) || exit 1
			client=lsfc-client
		fi
		for c in bsub bjobs bkill badmin bhosts lshosts lsload; do ln -sf "$client" "$work/bin/$c"; done
	fi
	export PEER_WORK=$work
else
	work=$PEER_WORK
fi

cleanup_dir() {
	if [ "${PEER_KEEP:-0}" = 1 ]; then
		say "kept $work"
	else
		case "$work" in /tmp/lsfc-peer.*) rm -rf "$work" ;; esac
	fi
}

# ---------------------------------------------------------------------
# Slurm: can it run here?

slurm_why_not=""
slurm_cmds="slurmctld slurmd sbatch squeue sinfo scontrol scancel munged mungekey"
slurm_missing() {
	local c
	for c in $slurm_cmds; do command -v "$c" >/dev/null 2>&1 || return 0; done
	return 1
}
slurm_install() {
	slurm_missing || return 0
	if [ "$(id -u)" != 0 ]; then
		slurm_why_not="Slurm is not installed and this is not root (apt-get install slurmctld slurmd slurm-client munge)"
		return 1
	fi
	if ! command -v apt-get >/dev/null; then
		slurm_why_not="Slurm is not installed and there is no apt-get"
		return 1
	fi
	say "installing slurmctld slurmd slurm-client munge from Debian"
	# The packages must not start their own services.
	local policy=/usr/sbin/policy-rc.d made=0
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made=1
	fi
	local rc=0
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null &&
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
			slurmctld slurmd slurm-client munge >/dev/null || rc=$?
	[ "$made" = 1 ] && rm -f "$policy"
	if [ "$rc" != 0 ] || slurm_missing; then
		slurm_why_not="apt-get could not install Slurm (exit $rc)"
		return 1
	fi
}

if [ "$sides" != lsfc ] && [ -z "${PEER_INSIDE:-}" ]; then
	slurm_install
	# A private network namespace holds only lo: the daemons cannot reach
	# or be reached from outside, and its pid namespace ends every
	# process left when this script exits.
	if [ -z "$slurm_why_not" ] && [ "${PEER_NETNS:-1}" = 1 ] && [ "$(id -u)" = 0 ] &&
		command -v unshare >/dev/null && command -v ip >/dev/null &&
		unshare --net --pid --fork --mount-proc true 2>/dev/null; then
		PEER_INSIDE=1 unshare --net --pid --fork --mount-proc --kill-child=SIGTERM bash "${BASH_SOURCE[0]}" "$sides"
		rc=$?
		cleanup_dir
		exit "$rc"
	fi
fi
if [ -n "${PEER_INSIDE:-}" ]; then
	# Slurm 22.05 resolves names with AI_ADDRCONFIG, which ignores
	# 127.0.0.1 itself: a second loopback address satisfies it.
	ip link set lo up && ip addr add 127.0.0.2/8 dev lo || exit 1
	say "in a private network namespace"
fi
if [ -z "${PEER_INSIDE:-}" ]; then
	trap cleanup_dir EXIT
fi

# ---------------------------------------------------------------------
# the loops, shared: LOOP_CMD is one submission, run from P loops

# loops N P: N submissions of LOOP_CMD from P background loops; sets
# fails (a count, or "cut" when a loop hit the bound).
loops() {
	local n=$1 p=$2 k cnt
	local -a pids=()
	rm -f "$side_dir"/fail.*
	for ((k = 0; k < p; k++)); do
		cnt=$((n / p + (k < n % p ? 1 : 0)))
		timeout -k 5 "$wait_max" bash -c '
			f=0
			for ((i = 0; i < $1; i++)); do eval "$2" >/dev/null 2>>"$3" || f=$((f + 1)); done
			echo "$f" >"$4"' _ "$cnt" "$LOOP_CMD" "$side_dir/submit.err" "$side_dir/fail.$k" &
		pids+=($!)
	done
	wait "${pids[@]}"
	fails=0
	for ((k = 0; k < p; k++)); do
		if [ -s "$side_dir/fail.$k" ]; then
			fails=$((fails + $(cat "$side_dir/fail.$k")))
		else
			fails=cut
			say "a submission loop was cut off after ${wait_max}s"
			return 1
		fi
	done
}

# rate N P MODE: submissions per second; MODE run or queued.
rate() {
	local n=$1 p=$2 mode=$3 t0 t1
	wait_empty || return 1
	if [ "$mode" = queued ]; then stop_queue >/dev/null || return 1; fi
	t0=$(now)
	loops "$n" "$p"
	t1=$(now)
	if [ "$mode" = queued ]; then
		cancel_all
		start_queue >/dev/null
	fi
	wait_empty
	per "$((n - ${fails/cut/$n}))" "$(minus "$t1" "$t0")"
}

# e2e N P: jobs ended per second, from the first submission to the last end.
e2e() {
	local n=$1 p=$2 t0 t1
	wait_empty || return 1
	t0=$(now)
	loops "$n" "$p"
	wait_empty
	t1=$(now)
	per "$n" "$(minus "$t1" "$t0")"
}

# drain N P: N jobs queued (not timed), then released: jobs ended per second.
drain() {
	local n=$1 p=$2 t0 t1
	wait_empty || return 1
	stop_queue >/dev/null || return 1
	loops "$n" "$p"
	t0=$(now)
	start_queue >/dev/null
	wait_empty
	t1=$(now)
	per "$n" "$(minus "$t1" "$t0")"
}

wait_empty() { until_ok "$wait_max" queue_empty || { say "the queue did not empty within ${wait_max}s"; return 1; }; }

# rounds: the rounds of every loop on the side set up; prints "KEY VALUE"
# lines of medians.
rounds() {
	local r
	local -a A=() B=() A2=() B2=() C=() E=()
	for ((r = 1; r <= reps; r++)); do
		say "$side: round $r of $reps"
		A+=("$(rate "$(sized 500)" 1 run)")
		B+=("$(rate "$(sized 2000)" 8 run)")
		A2+=("$(rate "$(sized 500)" 1 queued)")
		B2+=("$(rate "$(sized 2000)" 8 queued)")
		C+=("$(e2e "$(sized 2000)" 8)")
		E+=("$(drain "$(sized 2000)" 8)")
		say "$side: A ${A[-1]}/s B ${B[-1]}/s A2 ${A2[-1]}/s B2 ${B2[-1]}/s C ${C[-1]} jobs/s E ${E[-1]} jobs/s"
	done
	echo "A $(median "${A[@]}")"
	echo "B $(median "${B[@]}")"
	echo "A2 $(median "${A2[@]}")"
	echo "B2 $(median "${B2[@]}")"
	echo "C $(median "${C[@]}")"
	echo "E $(median "${E[@]}")"
	echo "D $(median_ms 100 whatif)"
	echo "D2 $(median_ms 100 whatif_live)"
	echo "P $(median_ms 50 version)"
	echo "P2 $(median_ms 50 version_client)"
	echo "SUBS $((reps * (2 * $(sized 500) + 4 * $(sized 2000))))"
}

# ---------------------------------------------------------------------
# lsfc

lsfc_conf() {
	local d=$side_dir/conf h
	h=$(hostname)
	mkdir -p "$d/lsbatch/peer/configdir" "$side_dir/work"
	printf 'LSF_VERSION=10.1\nLSF_UNIT_FOR_LIMITS=MB\n' >"$d/lsf.conf"
	printf 'Begin Cluster\nClusterName Servers\npeer (%s)\nEnd Cluster\n\nBegin HostType\nTYPENAME\nX86_64\nEnd HostType\n\nBegin HostModel\nMODELNAME CPUFACTOR ARCHITECTURE\nGeneric 10.0 (x86_64)\nEnd HostModel\n' "$h" >"$d/lsf.shared"
	printf 'Begin ClusterAdmins\nAdministrators = root\nEnd ClusterAdmins\n\nBegin Host\nHOSTNAME model type server RESOURCES\n%s Generic X86_64 1 ()\nEnd Host\n' "$h" >"$d/lsf.cluster.peer"
	printf 'Begin Host\nHOST_NAME MXJ\n%s 64\nEnd Host\n' "$h" >"$d/lsbatch/peer/configdir/lsb.hosts"
	printf 'Begin Parameters\nDEFAULT_QUEUE = normal\nMBD_SLEEP_TIME = 10\nSBD_SLEEP_TIME = 7\nJOB_ACCEPT_INTERVAL = 0\nJOB_SCHEDULING_INTERVAL = 100ms\nCLEAN_PERIOD = 300\nEnd Parameters\n' >"$d/lsbatch/peer/configdir/lsb.params"
	printf 'Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n' >"$d/lsbatch/peer/configdir/lsb.queues"
}

run_lsfc() {
	side=lsfc side_dir=$work/lsfc
	export PATH="$work/bin:$PATH" LSFC_STATE=$side_dir/state
	lsfc_conf
	lsfc check "$side_dir/conf" >"$side_dir/check.out" 2>&1 || {
		say "lsfc check failed: $(tail -n 3 "$side_dir/check.out")"
		return 1
	}
	lsfc serve --conf "$side_dir/conf" --state "$LSFC_STATE" </dev/null >"$side_dir/serve.log" 2>&1 &
	serve_pid=$!
	host_ok() { bhosts 2>/dev/null | awk 'NR > 1 && $2 == "ok" { f = 1 } END { exit !f }'; }
	if ! until_ok 60 host_ok; then
		say "lsfc serve did not come up: $(tail -n 3 "$side_dir/serve.log")"
		kill "$serve_pid" 2>/dev/null
		return 1
	fi
	queue_empty() { local q; q=$(bjobs -u all -o stat -noheader 2>/dev/null) && [ -z "$q" ]; }
	stop_queue() { badmin qinact normal >/dev/null; }
	start_queue() { badmin qact normal >/dev/null; }
	cancel_all() { bkill 0 >/dev/null 2>&1; }
	LOOP_CMD="bsub -o /dev/null -cwd '$side_dir/work' true"
	lshosts -w >"$side_dir/lshosts.txt" 2>/dev/null
	lsload -w >"$side_dir/lsload.txt" 2>/dev/null
	whatif() { lsfc resreq match -R 'select[type==any]' --conf "$side_dir/conf" --queue normal --lshosts "$side_dir/lshosts.txt" --lsload "$side_dir/lsload.txt"; }
	whatif_live() { bhosts -R 'select[type==any]' >/dev/null; }
	version() { lsfc version; }
	local client_bin
	client_bin=$(readlink -f "$(command -v bhosts)")
	version_client() { "$client_bin" version; }
	local check
	check=$(bsub -K -o /dev/null -cwd "$side_dir/work" true 2>&1 | tail -n 1)
	say "lsfc: up (serve $serve_pid); a first job: $check"
	rounds >"$side_dir/results"
	{
		echo "RSS $(vm "$serve_pid" VmRSS)"
		echo "HWM $(vm "$serve_pid" VmHWM)"
		echo "CPU $(cpu_s "$serve_pid")"
	} >>"$side_dir/results"
	cancel_all
	wait_empty
	kill -TERM "$serve_pid" 2>/dev/null
	wait "$serve_pid" 2>/dev/null
}

# ---------------------------------------------------------------------
# Slurm: one node on loopback, set up as lsfc's peer is everywhere

run_slurm() {
	side=slurm side_dir=$work/slurm
	local d=$side_dir p=${PEER_PORT:-16817}
	mkdir -p "$d"/{etc,state,spool,log,run,work,munge} || return 1
	chmod 755 "$d" "$d/munge"
	mungekey --create --keyfile="$d/munge/munge.key" --bits=1024 || return 1
	chmod 600 "$d/munge/munge.key"
	local bind=""
	if getent hosts "$(hostname)" | awk '{ print $1 }' | grep -q '^127\.'; then
		bind="CommunicationParameters=NoCtldInAddrAny,NoInAddrAny"
	fi
	cat >"$d/etc/slurm.conf" <<EOF
ClusterName=peer
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$p-$((p + 1))
SlurmdPort=$((p + 2))
SrunPortRange=$((p + 3))-$((p + 102))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket.2
MailProg=/bin/true
$bind
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=error
MpiDefault=none
SwitchType=switch/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
PriorityType=priority/basic
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000,default_queue_depth=200,partition_job_depth=0,bf_continue,bf_interval=30,bf_max_job_test=200,bf_yield_interval=1000000
MaxJobCount=200000
MinJobAge=2
MessageTimeout=60
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=64 RealMemory=20000 State=UNKNOWN
PartitionName=peer Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$d/etc/slurm.conf
	munged -F --num-threads=10 --key-file="$d/munge/munge.key" --socket="$d/munge/munge.socket.2" \
		--pid-file="$d/run/munged.pid" --log-file="$d/log/munged.log" --seed-file="$d/munge/munged.seed" \
		</dev/null >"$d/log/munged.out" 2>&1 &
	munged_pid=$!
	until_ok 15 test -S "$d/munge/munge.socket.2" || { say "munged did not start"; return 1; }
	slurmctld -D -c -f "$SLURM_CONF" </dev/null >"$d/log/slurmctld.out" 2>&1 &
	ctld_pid=$!
	until_ok 30 scontrol ping || { say "slurmctld did not answer: $(tail -n 3 "$d/log/slurmctld.log")"; return 1; }
	slurmd -D -N localhost -f "$SLURM_CONF" </dev/null >"$d/log/slurmd.out" 2>&1 &
	slurmd_pid=$!
	node_idle() { [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ]; }
	until_ok 60 node_idle || { say "the Slurm node did not become idle: $(sinfo -h -N -o '%N %t %E' 2>&1)"; return 1; }
	queue_empty() { local q; q=$(squeue -h -t PD,R,CG,CF,S -o %i 2>/dev/null) && [ -z "$q" ]; }
	stop_queue() { scontrol update PartitionName=peer State=DOWN; }
	start_queue() { scontrol update PartitionName=peer State=UP; }
	cancel_all() { scancel -u "$(id -un)" >/dev/null 2>&1; }
	LOOP_CMD="sbatch -o /dev/null -D '$d/work' --wrap=true"
	whatif() { sbatch --test-only -o /dev/null -D "$d/work" --wrap=true; }
	whatif_live() { whatif; }
	version() { sbatch --version; }
	version_client() { version; }
	say "slurm: up (slurmctld $ctld_pid, slurmd $slurmd_pid, munged $munged_pid)"
	rounds >"$d/results"
	{
		echo "RSS $(vm "$ctld_pid" VmRSS)"
		echo "HWM $(vm "$ctld_pid" VmHWM)"
		echo "CPU $(cpu_s "$ctld_pid")"
	} >>"$d/results"
}

stop_slurm() {
	local pid
	[ -n "${ctld_pid:-}" ] && { cancel_all; wait_empty; }
	for pid in ${slurmd_pid:-} ${ctld_pid:-} ${munged_pid:-}; do
		kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	slurmd_pid="" ctld_pid="" munged_pid=""
}

# ---------------------------------------------------------------------
# the run and the table

if [ "$sides" != slurm ]; then
	run_lsfc || say "THE LSFC SIDE FAILED: see $work/lsfc"
fi
if [ "$sides" != lsfc ]; then
	if [ -z "$slurm_why_not" ] && slurm_missing; then
		slurm_why_not="Slurm is not installed (run as root to install it)"
	fi
	if [ -n "$slurm_why_not" ]; then
		say "THE SLURM SIDE DID NOT RUN: $slurm_why_not"
	else
		run_slurm || say "THE SLURM SIDE FAILED: see $work/slurm/log"
		stop_slurm
	fi
fi

get() { awk -v k="$2" '$1 == k { print $2 }' "$work/$1/results" 2>/dev/null; }
# row TEXT KEY KIND: KIND is rate (lsfc ÷ Slurm), time (how many times
# slower or faster lsfc is) or size (how many times more or less).
row() {
	local s l r
	s=$(get slurm "$2")
	l=$(get lsfc "$2")
	r=$(LC_ALL=C awk -v l="${l:--}" -v s="${s:--}" -v k="$3" 'BEGIN {
		if (l !~ /^[0-9.]+$/ || s !~ /^[0-9.]+$/ || s == 0 || l == 0) { print "-"; exit }
		if (k == "rate") printf "%.2f", l / s
		else if (k == "time" && l > s) printf "%.1f× slower", l / s
		else if (k == "time") printf "%.1f× faster", s / l
		else if (l > s) printf "%.2f× more", l / s
		else printf "%.2f× less", s / l }')
	printf '| %s | %s | %s | %s |\n' "$1" "${s:--}" "${l:--}" "$r"
}
subs=$(get lsfc SUBS)
[ -n "$subs" ] || subs=$(get slurm SUBS)
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $reps round(s) at ${scale}% size"
echo
echo "| what | Slurm 22.05 | lsfc | lsfc ÷ Slurm |"
echo "|---|---|---|---|"
row "\`bsub\` / \`sbatch\`, $(sized 500) in one loop, jobs running (/s)" A rate
row "same, $(sized 2000) from 8 parallel loops (/s)" B rate
row "same, $(sized 500) in one loop, nothing running (/s)" A2 rate
row "same, $(sized 2000) from 8 loops, nothing running (/s)" B2 rate
row "$(sized 2000) trivial jobs, 8 submit loops, first submit → all done (jobs/s)" C rate
row "$(sized 2000) jobs queued, then released → all done (jobs/s)" E rate
row "what-if of one requirement, from the files (ms)" D time
row "what-if of one requirement, \`sbatch --test-only\` vs \`bhosts -R\` from the daemon's live state (ms)" D2 time
row "process start: \`sbatch --version\` vs \`lsfc version\` (ms)" P time
row "process start: \`sbatch --version\` vs the LSF commands' build, \`lsfc-client version\` (ms)" P2 time
row "daemon RSS after ${subs:-?} submissions (kB)" RSS size
row "daemon peak RSS (kB)" HWM size
row "daemon CPU over the run (s)" CPU size
if [ -n "$slurm_why_not" ]; then
	echo
	echo "The Slurm side did not run: $slurm_why_not."
fi
