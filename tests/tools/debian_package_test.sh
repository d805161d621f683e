#!/usr/bin/env bash
# The Debian package as a user and a plugin author get it: cpack makes
# dlpack-usm_VERSION_ARCH.deb from the build tree; its dependencies are real
# Debian packages that this machine satisfies; unpacked into a scratch root,
# the installed binary answers --version, list-devices and check from the
# installed layout (its own conformance suite); and the fixture producer
# builds against the installed plugin.h through find_package and through
# pkg-config, and passes check --producer.
# Arguments: CPACK BUILD_DIR SOURCE_DIR WORK_DIR VERSION
set -euo pipefail
cpack=$1 build=$2 source=$3 work=$4 version=$5
rm -rf "$work" && mkdir -p "$work"
arch=$(dpkg --print-architecture)

"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
deb="$work/pkg/dlpack-usm_${version}_${arch}.deb"
[[ -f $deb ]] || { echo "cpack made no $deb:"; ls "$work/pkg"; exit 1; }
dpkg-deb --info "$deb"

# Dependencies: the package of every library the packaged binaries link
# (their NEEDED entries, as this machine resolves them: g++ 12 on Debian
# links libstdc++ where g++ 13 on Ubuntu 24.04 needs none of it directly)
# and the ICD loader the tool opens at run time, each a Debian package this
# machine has at a version that satisfies the constraint.
depends=$(dpkg-deb --field "$deb" Depends)
dpkg-deb --extract "$deb" "$work/needed"
linked_packages() {
  find "$work/needed/usr/bin" "$work/needed/usr/lib" -type f \( -name 'dlpack-usm' -o -name '*.so.*' \) \
    -exec objdump -p {} + | awk '$1 == "NEEDED" {print $2}' | sort -u | while read -r library; do
    path=$(ldconfig -p | awk -v l="$library" '$1 == l {print $NF; exit}')
    if [[ -n $path ]]; then
      dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1 || true
    fi
  done | sort -u
}
for needed in $(linked_packages) ocl-icd-libopencl1; do
  grep -q "$needed" <<<"$depends" || { echo "Depends lacks $needed: $depends"; exit 1; }
done
echo "Depends covers the linked packages: $(linked_packages | tr '\n' ' ')"
IFS=',' read -ra groups <<<"$depends"
for group in "${groups[@]}"; do
  satisfied=0
  IFS='|' read -ra alternatives <<<"$group"
  for alternative in "${alternatives[@]}"; do
    read -r name relation wanted <<<"$(tr -d '()' <<<"$alternative")"
    installed=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
    [[ $installed == "install ok installed "* ]] || continue
    if [[ -z ${relation:-} ]] ||
      dpkg --compare-versions "${installed##* }" "${relation/>=/ge}" "$wanted"; then
      satisfied=1
    fi
  done
  [[ $satisfied -eq 1 ]] || { echo "dependency not satisfied here:$group"; exit 1; }
done
echo "Depends: $depends (all satisfied)"

root="$work/root"
dpkg-deb --extract "$deb" "$root"
tool="$root/usr/bin/dlpack-usm"
for file in usr/bin/dlpack-usm usr/include/dlpack_usm/plugin.h usr/include/dlpack_usm/dlpack_abi.h \
  usr/include/dlpack_usm/bridge.h \
  usr/share/dlpack-usm/conformance/manifest.json usr/share/dlpack-usm/plugin_repro.c \
  usr/share/man/man1/dlpack-usm.1 \
  usr/share/man/man7/dlpack-usm-plugin.7 usr/share/dlpack-usm/python/dlpack_usm/__init__.py \
  usr/share/dlpack-usm/python/dlpack_usm/_bridge/library.py \
  usr/share/cmake/dlpack-usm/dlpack-usm-config.cmake usr/share/pkgconfig/dlpack-usm.pc; do
  [[ -e $root/$file ]] || { echo "the package lacks /$file"; exit 1; }
done
compgen -G "$root/usr/lib*/libdlpack_usm.so.1" >/dev/null || { echo "the package lacks libdlpack_usm.so.1"; exit 1; }

# Run from elsewhere, so that nothing of the build tree is at hand.
cd "$work"
[[ $("$tool" --version) == "dlpack-usm $version" ]] || { echo "--version: $("$tool" --version)"; exit 1; }
"$tool" list-devices
"$tool" check --report "$work/report.json" >"$work/check.txt" ||
  { cat "$work/check.txt"; exit 1; }
tail -n 3 "$work/check.txt"

# A plugin author's two ways to the installed header.
cmake -S "$source/tests/package" -B "$work/plugin-cmake" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DFIXTURE_DIR="$source/fixtures/plugins" >"$work/plugin-cmake.log" 2>&1 &&
  cmake --build "$work/plugin-cmake" >>"$work/plugin-cmake.log" 2>&1 ||
  { cat "$work/plugin-cmake.log"; exit 1; }
grep -q "dlpack-usm::plugin includes $root/usr/include" "$work/plugin-cmake.log" ||
  { cat "$work/plugin-cmake.log"; echo "find_package did not give the installed headers"; exit 1; }

cflags=$(PKG_CONFIG_PATH="$root/usr/share/pkgconfig" pkg-config --cflags dlpack-usm)
# The .pc file finds the headers relative to itself (prefix=${pcfiledir}/../..).
included=$(realpath -m "$(sed -n 's/.*-I\([^ ]*\).*/\1/p' <<<"$cflags")")
[[ $included == "$(realpath "$root/usr/include")" ]] ||
  { echo "pkg-config --cflags dlpack-usm: $cflags"; exit 1; }
# shellcheck disable=SC2086  # the flags are words
cc -std=c11 -Wall -Wextra -shared -fPIC $cflags -I"$source/fixtures/plugins" \
  -DFIXTURE_NAME='"installed-producer-pkgconfig"' \
  -o "$work/libproducer_pkgconfig.so" "$source/fixtures/plugins/producer.c" -l:libOpenCL.so.1

for plugin in "$work/plugin-cmake/libproducer.so" "$work/libproducer_pkgconfig.so"; do
  "$tool" check --producer "$plugin" --filter 'producer/*/device/float32/*' >"$work/plugin.txt" ||
    { cat "$work/plugin.txt"; exit 1; }
  tail -n 1 "$work/plugin.txt"
done
echo "the package installs, runs check, and its header builds a plugin both ways"
