// Why this shim exists: exposes Debian's libyaml (libyaml-0-2) to Swift, so `libinput record`
// files are parsed by the system library instead of a copy bundled into the binary.
#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H
#include <yaml.h>
#endif
