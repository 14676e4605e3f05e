# Shared by ./run and its task scripts (tools/test, tools/release, tools/upgrade, tools/demo-stop): sourced, from the
# repository root. ./run finds the JDK (find_jdk) and exports JAVA_HOME before it calls any of the rest.

java_major() { # prints the feature version of the JDK at $1, or nothing
  local rel="$1/release"
  [ -x "$1/bin/javac" ] || return 0
  if [ -f "$rel" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$rel"
  fi
}

find_jdk() { # a JDK >= 21 (Elasticsearch 9, and Maven on Elasticsearch 9 jars, need it): JAVA_HOME, /usr/lib/jvm/*, javac
  local c v
  for c in "${JAVA_HOME:-}" $(ls -d /usr/lib/jvm/* 2>/dev/null | sort -rV); do
    [ -n "$c" ] || continue
    v=$(java_major "$c")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then echo "$c"; return 0; fi
  done
  if command -v javac >/dev/null; then
    c=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(java_major "$c")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then echo "$c"; return 0; fi
  fi
  return 1
}

MVN=(mvn -B -ntp)
VERSIONS_FILE=${SIMHASH_ES_VERSIONS:-es-versions}   # another file only to try a change of the list (tools/versions)
DEFAULT_ES=$(tools/versions default) || exit 1

# Classes compiled for one Elasticsearch line must not be reused for another (Maven's incremental build does not notice
# the change): target/es-version records the version target/ was built for; a different one starts from a clean target.
ES_MARK=target/es-version
clean_if_other_version() {
  if [ -d target ] && [ "$(cat "$ES_MARK" 2>/dev/null || true)" != "$1" ]; then
    tools/demo-stop quiet
    "${MVN[@]}" -q clean
  fi
  mkdir -p target && echo "$1" >"$ES_MARK"
}

# Runs a command with its output in a log file, showing a running clock on a terminal; on failure
# prints the log's tail. Usage: quietly LABEL LOG COMMAND...
quietly() {
  local label=$1 log=$2 start=$SECONDS pid rc=0 again=""
  shift 2
  printf '[%s] %s …' "${TAG:-demo}" "$label"
  "$@" >"$log" 2>&1 &
  pid=$!
  if [ -t 1 ]; then
    again="\r[${TAG:-demo}] $label …"
    while kill -0 "$pid" 2>/dev/null; do printf '%b %ds' "$again" $((SECONDS - start)); sleep 1; done
  fi
  wait "$pid" || rc=$?
  if [ "$rc" -ne 0 ]; then
    printf '%b failed after %ds; last lines of %s:\n' "$again" $((SECONDS - start)) "$log"
    tail -n 40 "$log" >&2
    return "$rc"
  fi
  printf '%b done in %ds\n' "$again" $((SECONDS - start))
}

# The build units (CONTRIBUTING.md, "Build units"): the plugin (pom.xml, src/), the harness (harness/), the benchmarks
# (bench/), the demo (demo/) and the operations drivers (drivers/: soak, chaos, rolling upgrade), with their parent and
# aggregator units/pom.xml (the one version, the default Elasticsearch build). bench, demo and drivers depend on the
# built plugin and the harness through the local Maven repository, always for the default Elasticsearch version.

# install_plugin_and_harness [MAVEN OPTIONS...]: the units' parent, the plugin jar and zip (tests skipped; the
# Elasticsearch distribution lands in target/es-distribution on the way) and the harness, into the local Maven repository.
install_plugin_and_harness() {
  clean_if_other_version "$DEFAULT_ES"
  "${MVN[@]}" -q -f units -pl :simhash-elasticsearch,:simhash-harness -am -DskipTests install "$@"
}

# build_unit UNIT CLASSPATH_FILE [MAVEN OPTIONS...]: installs the plugin and the harness, compiles UNIT (bench, demo, drivers)
# and writes its run-time class path (without its own classes) to CLASSPATH_FILE.
build_unit() {
  local unit=$1 cp_file=$2
  shift 2
  install_plugin_and_harness "$@"
  "${MVN[@]}" -q -f "$unit/pom.xml" compile dependency:build-classpath \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$PWD/$cp_file"
}

# own_snapshots CLASSPATH_FILE DIR: copies the class path's jars of this project (the plugin's and the harness's, group
# dev.simhash, which any later build in any clone replaces in the local Maven repository) into DIR and points
# CLASSPATH_FILE at the copies, so that a long run keeps the classes it started with.
own_snapshots() {
  local cp_file=$1 dir=$2 entry entries out=()
  rm -rf "$dir"
  mkdir -p "$dir"
  IFS=: read -r -a entries < "$cp_file" || true   # no newline at its end: read says EOF
  for entry in "${entries[@]}"; do
    if [[ $entry == */dev/simhash/*.jar ]]; then
      cp "$entry" "$dir/"
      entry="$PWD/$dir/$(basename "$entry")"
    fi
    out+=("$entry")
  done
  (IFS=:; echo "${out[*]}") > "$cp_file"
}

# build_for_main DIR [UNIT]: builds the plugin zip, fetches the ES distribution and UNIT (demo, the default, or drivers)
# with its class path, for the mains that drive a real node (demo; soak, chaos, upgrade); Maven's output goes to
# DIR/build.log.
build_for_main() {
  local unit=${2:-demo}
  clean_if_other_version "$DEFAULT_ES"   # before the log is opened: a clean deletes target/
  mkdir -p "$1"
  quietly "building the plugin, the harness and the $unit with Maven (the first run downloads ~250 MB)" "$1/build.log" \
    build_unit "$unit" "$1/classpath.txt"
}

# run_main UNIT WORKDIR CLASS [JVM options...] -- [args...]: runs a main class of UNIT with the harness's inputs.
run_main() {
  local unit=$1 dir=$2 main=$3 es_version plugin_zip jvm=()
  shift 3
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do jvm+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  es_version=$DEFAULT_ES
  plugin_zip=$(ls -t target/simhash-*-es"$es_version".zip | head -n 1)
  exec "$JAVA_HOME/bin/java" -cp "$unit/target/classes:$(cat "$dir/classpath.txt")" \
    -Dsimhash.es.version="$es_version" -Dsimhash.es.distribution="target/es-distribution/elasticsearch-$es_version.zip" \
    -Dsimhash.plugin.zip="$plugin_zip" -Dsimhash.it.workdir="$dir" "${jvm[@]}" "$main" "$@"
}

# build_zip VERSION [MAVEN OPTIONS...]: the plugin zip for VERSION in target/ (cleaned first when it holds another version)
build_zip() {
  clean_if_other_version "$1"
  shift
  "${MVN[@]}" -DskipTests package "$@"
}
