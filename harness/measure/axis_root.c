/*
 * axis_root (axis_ops.h), in a file of its own: an axis's hooks read it
 * and axis_ops.c lists the hooks, so defined there it would make each
 * axis's file and axis_ops.c a circle (tools/layers.sh).
 */
#include "axis_ops.h"

const char *axis_root = "";
