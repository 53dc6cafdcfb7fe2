# Shared by every script under Scripts/: source it, do not run it.
#
#     source "$(dirname "$0")/../lib/common.sh"   # from Scripts/<kind>/; then the working directory is the repo root
#
# What it gives:
#   repo_root                      the repository's root (the working directory after sourcing)
#   script_name                    the calling script's name without .sh (prefixes messages)
#   fail MESSAGE…                  prints "<script>: MESSAGE" on stderr and exits 1
#   make_work_dir                  sets $work to a new temporary directory, removed on exit
#   on_exit COMMAND                runs COMMAND (a string, eval'd) on exit, last registered first; $exit_status is
#                                  the script's exit status then
#   start_background [--stdout FILE] LOG CMD…
#                                  starts CMD in the background in a process group of its own (setsid), stderr (and
#                                  stdout, unless FILE is given) to LOG, stdin from /dev/null; its pid is
#                                  $background_pid; it and whatever it started are stopped on exit unless waited for
#                                  with wait_background
#   wait_background PID            waits for PID, returns its exit status, and no longer stops it on exit
#   stop_background PID            stops PID's process group (TERM, then KILL after 2 s) and waits for it
#   wait_for [--timeout S] [--pid PID] [--log FILE] WHAT CMD…
#                                  runs CMD every 0.1 s until it succeeds; fails (naming WHAT, with the last lines of
#                                  FILE) after S seconds (default 15) or as soon as PID has exited
#   wait_for_url URL [options]     … until URL answers with a status below 400
#   wait_for_file FILE [options]   … until FILE exists and is not empty
#   wait_for_line FILE REGEX [options]  … until a line of FILE matches the extended REGEX
#   wait_for_port PORT [options]   … until 127.0.0.1:PORT accepts a TCP connection
#   elapsed_since EPOCH            seconds since EPOCH (from `date +%s.%N`), one decimal
#
# Every process started with start_background is stopped when the script exits, whatever the exit, so a failed
# check never leaves an emulator, a server or a login waiting on a port; then the on_exit commands run. A script
# that needs its own EXIT trap registers it with on_exit instead (a second `trap … EXIT` would replace this one).

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
script_name="$(basename "${0%.sh}")"
cd "$repo_root"

_background_pids=()
_exit_commands=()

_common_exit() {
  local status=$? index pid
  exit_status=$status
  for pid in "${_background_pids[@]}"; do
    [ -n "$pid" ] && _stop_pid "$pid"
  done
  for ((index = ${#_exit_commands[@]} - 1; index >= 0; index--)); do
    eval "${_exit_commands[$index]}" || true
  done
  return "$status"
}
trap _common_exit EXIT
# A signal ends the script through exit, so the EXIT trap stops what it started.
trap "exit 130" INT
trap "exit 143" TERM

fail() {
  echo "$script_name: $*" >&2
  exit 1
}

on_exit() {
  _exit_commands+=("$1")
}

make_work_dir() {
  work="$(mktemp -d)"
  on_exit "rm -rf '$work'"
}

start_background() {
  local out=""
  if [ "$1" = --stdout ]; then out="$2"; shift 2; fi
  local log="$1"
  shift
  # setsid: a process group of its own, so stopping it stops what it started too (a build's compilers, a wrapper's
  # child). Not a group leader here (no job control), so setsid execs in place and the pid is the command's.
  # Emptied here, before the command starts: the redirections below happen in the background child, so a caller
  # waiting for the output's first line could otherwise read a previous run's line, then find the file emptied.
  [ -z "$out" ] || : > "$out"
  : > "$log"
  if [ -n "$out" ]; then
    setsid "$@" > "$out" 2> "$log" < /dev/null &
  else
    setsid "$@" > "$log" 2>&1 < /dev/null &
  fi
  background_pid=$!
  _background_pids+=("$background_pid")
}

# Removes PID from the processes stopped on exit (it has ended, and its number may be reused).
_forget_pid() {
  local index
  for index in "${!_background_pids[@]}"; do
    [ "${_background_pids[$index]}" = "$1" ] && unset '_background_pids[index]'
  done
  return 0
}

_stop_pid() {
  local pid="$1" _
  kill -0 "$pid" 2> /dev/null || { wait "$pid" 2> /dev/null || true; return 0; }
  kill -TERM -- "-$pid" 2> /dev/null || kill -TERM "$pid" 2> /dev/null || true
  for _ in $(seq 1 20); do
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2> /dev/null || kill -KILL "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
}

wait_background() {
  local status=0
  wait "$1" 2> /dev/null || status=$?  # no "Killed" notice for a process the script killed on purpose
  _forget_pid "$1"
  return "$status"
}

stop_background() {
  _stop_pid "$1"
  _forget_pid "$1"
}

wait_for() {
  local timeout=15 pid="" log=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --timeout) timeout="$2"; shift 2 ;;
      --pid) pid="$2"; shift 2 ;;
      --log) log="$2"; shift 2 ;;
      *) break ;;
    esac
  done
  local what="$1"
  shift
  local started
  started="$(date +%s.%N)"
  while true; do
    if "$@"; then return 0; fi
    if [ -n "$pid" ] && ! kill -0 "$pid" 2> /dev/null; then
      "$@" && return 0  # it may have answered just before it exited
      _wait_failed "$what" "$log" "its process exited"
    fi
    if awk -v took="$(elapsed_since "$started")" -v limit="$timeout" 'BEGIN { exit !(took >= limit) }'; then
      _wait_failed "$what" "$log" "no answer after ${timeout}s"
    fi
    sleep 0.1
  done
}

_wait_failed() {
  local what="$1" log="$2" why="$3"
  if [ -n "$log" ] && [ -f "$log" ]; then
    echo "$script_name: last lines of $log:" >&2
    tail -n 30 "$log" | sed 's/^/    /' >&2
  fi
  fail "$what: $why"
}

_url_answers() {
  curl -sf -o /dev/null --max-time 2 "$1"
}

_file_filled() {
  [ -s "$1" ]
}

_first_line_written() {
  [ -f "$1" ] && [ "$(wc -l < "$1")" -ge 1 ]
}

_line_matches() {
  grep -qE -- "$2" "$1" 2> /dev/null
}

_port_open() {
  (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null
}

# wait_for_KIND ARGUMENT… [options]: the options may come before or after the arguments.
_split_options() {
  _wait_options=()
  _wait_arguments=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --timeout | --pid | --log) _wait_options+=("$1" "$2"); shift 2 ;;
      *) _wait_arguments+=("$1"); shift ;;
    esac
  done
}

wait_for_url() {
  _split_options "$@"
  wait_for "${_wait_options[@]}" "${_wait_arguments[0]} did not answer" _url_answers "${_wait_arguments[0]}"
}

wait_for_file() {
  _split_options "$@"
  wait_for "${_wait_options[@]}" "nothing was written to ${_wait_arguments[0]}" _file_filled "${_wait_arguments[0]}"
}

# wait_for_first_line FILE: until FILE holds one whole line (a long URL arrives in several writes; a reader that
# took the first bytes would get half of it).
wait_for_first_line() {
  _split_options "$@"
  wait_for "${_wait_options[@]}" "no whole line was written to ${_wait_arguments[0]}" _first_line_written "${_wait_arguments[0]}"
}

wait_for_line() {
  _split_options "$@"
  wait_for "${_wait_options[@]}" "no line matching '${_wait_arguments[1]}' in ${_wait_arguments[0]}" \
    _line_matches "${_wait_arguments[0]}" "${_wait_arguments[1]}"
}

wait_for_port() {
  _split_options "$@"
  wait_for "${_wait_options[@]}" "nothing listens on 127.0.0.1:${_wait_arguments[0]}" _port_open "${_wait_arguments[0]}"
}

elapsed_since() {
  awk -v start="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f", now - start }'
}
