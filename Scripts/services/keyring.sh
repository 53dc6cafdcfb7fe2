#!/usr/bin/env bash
# A private Secret Service for tests: GNOME Keyring's daemon on a D-Bus session bus of its own.
#
#     Scripts/services/keyring.sh install     installs dbus, gnome-keyring and libsecret-tools (Debian) when missing,
#                                             with apt-get as root or through sudo
#     Scripts/services/keyring.sh bus-config DIR
#                                             prints a session bus configuration listening on DIR/bus with no
#                                             service directories: nothing is started on demand, so the only Secret
#                                             Service on it is the daemon the test starts (and before that, none)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
case "${1:-}" in
  install)
    if ! command -v dbus-daemon > /dev/null || ! command -v gnome-keyring-daemon > /dev/null || ! command -v secret-tool > /dev/null; then
      echo "keyring.sh: installing dbus, gnome-keyring and libsecret-tools (Debian)" >&2
      sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
      $sudo apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dbus gnome-keyring libsecret-tools > /dev/null
    fi
    ;;
  bus-config)
    cat <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$2/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
    ;;
  *) echo "usage: $0 install | bus-config DIR" >&2; exit 2 ;;
esac
