#!/usr/bin/env bash
# Two single nodes of Elasticsearch 9.5.4 (the integ-test-zip from the local Maven repository), one with each plugin
# build: tools/build-ab/setup.sh A.zip B.zip WORKDIR; then tools/build-ab/ab.py compares them on the same data.
# Loopback ports 19200 (A) and 19201 (B); as root the nodes run as uid 4242. Stop them with: pkill -f WORKDIR/node-
set -euo pipefail
a_zip=$(realpath "$1") b_zip=$(realpath "$2"); mkdir -p "$3"; cd "$3"; cp "$a_zip" a.zip; cp "$b_zip" b.zip
JDK=${ES_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}   # a JDK >= 21
DIST=$HOME/.m2/repository/org/elasticsearch/distribution/integ-test-zip/elasticsearch/9.5.4/elasticsearch-9.5.4.zip
for n in a b; do
  rm -rf node-$n && mkdir node-$n && unzip -q "$DIST" -d node-$n
  home=$(ls -d node-$n/elasticsearch-*)
  ES_JAVA_HOME=$JDK "$home/bin/elasticsearch-plugin" install --batch "file://$PWD/$n.zip" >/dev/null
  port=$([ $n = a ] && echo 19200 || echo 19201)
  tport=$([ $n = a ] && echo 19300 || echo 19301)
  cat >> "$home/config/elasticsearch.yml" <<YML
cluster.name: ab-$n
node.name: ab-$n
network.host: 127.0.0.1
http.port: $port
transport.port: $tport
discovery.type: single-node
xpack.security.enabled: false
YML
  printf -- '-Xms1g\n-Xmx1g\n' > "$home/config/jvm.options.d/heap.options"
  as=()
  if [ "$(id -u)" = 0 ]; then chown -R 4242:4242 node-$n; as=(setpriv --reuid=4242 --regid=4242 --clear-groups); fi
  (cd "$home" && ES_JAVA_HOME=$JDK "${as[@]}" bin/elasticsearch -d -p "$PWD/pid" >/dev/null 2>&1)
done
for port in 19200 19201; do
  for i in $(seq 1 120); do curl -s "127.0.0.1:$port/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null && break; sleep 1; done
  curl -s "127.0.0.1:$port/_cat/plugins"
done
