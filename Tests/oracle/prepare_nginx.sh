#!/usr/bin/env bash
# prepare_nginx.sh DIR HTTP_PORT HTTPS_PORT
#
# Prepares DIR for nginx_dav.conf (TLS certificates, www/dav, www/small, body-temp, logs) and
# writes DIR/nginx.conf; then prints the nginx command line to run (it stays in the foreground).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 DIR HTTP_PORT HTTPS_PORT" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$1
mkdir -p "$dir/www/dav" "$dir/www/small" "$dir/body-temp" "$dir/logs"
[ -f "$dir/tls/server.pem" ] || bash "$here/make_server_cert.sh" "$dir/tls"
sed -e "s|@DIR@|$dir|g" -e "s|@HTTP_PORT@|$2|g" -e "s|@HTTPS_PORT@|$3|g" "$here/nginx_dav.conf" > "$dir/nginx.conf"
echo "/usr/sbin/nginx -p $dir -e $dir/logs/error.log -c $dir/nginx.conf"
