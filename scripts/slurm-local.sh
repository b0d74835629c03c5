#!/usr/bin/env bash
# A real single-node Slurm on this machine, for the end-to-end test of experiments as a
# job array (tests/experiment_slurm.rs): installs Debian's slurmctld, slurmd, the client
# commands and munge when missing, writes a one-node configuration (this machine as node
# `localhost`, all its CPUs, partition `debug`), starts munged, slurmctld and slurmd, and
# waits until the node takes jobs. Needs root. Idempotent: a running Slurm is kept.
#
# Usage: scripts/slurm-local.sh          (start; `sinfo` then shows the node idle)
#        scripts/slurm-local.sh stop     (stop the daemons this script started)
set -euo pipefail
conf=/etc/slurm/slurm.conf
run=/run/wsim-slurm

say() { echo "slurm-local: $*" >&2; }

# The daemons' own pid files (this configuration's and munged's).
pidfiles=("$run/slurmd.pid" "$run/slurmctld.pid" /run/munge/munged.pid)

stop() {
    for pidfile in "${pidfiles[@]}"; do
        if [ -f "$pidfile" ]; then
            kill "$(cat "$pidfile")" 2>/dev/null || true
            rm -f "$pidfile"
        fi
    done
}

if [ "${1:-}" = stop ]; then
    stop
    exit 0
fi
[ "$(id -u)" = 0 ] || { say "needs root (it installs packages and starts daemons)"; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurmctld, slurmd, slurm-client and munge (Debian packages)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi

if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
    say "Slurm is already running"
    exit 0
fi

mkdir -p "$run" /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
# Everything as root on one node: no cgroups (containers often lack them), no accounting.
cat >"$conf" <<EOF
ClusterName=wsim
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

say "starting munged, slurmctld and slurmd ($cpus CPUs, $memory MiB)"
# Whatever a previous start left half up goes first.
stop
sleep 1
chown munge:munge /run/munge
[ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey --create --keyfile /etc/munge/munge.key
runuser -u munge -- munged --force
munge -n | unmunge >/dev/null || { say "munge does not work"; exit 1; }
slurmctld
slurmd -N localhost

for _ in $(seq 30); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    case $state in
        idle | mixed | allocated) say "node localhost is $state"; exit 0 ;;
        down* | drain*) scontrol update NodeName=localhost State=RESUME 2>/dev/null || true ;;
    esac
    sleep 1
done
say "Slurm did not come up; its logs:"
tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
exit 1
