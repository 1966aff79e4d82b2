/*
 * The one door to a cell's single files for the readers (report,
 * compare, history, export, the campaign): cell.ini's and sysinfo.ini's
 * values, log.txt and samples.bin opened under the same rules as the CSV
 * files (a regular file, bounded; a FIFO or a device in its place is
 * refused without waiting). The CSV files are tree.c's.
 */
#ifndef LATLAB_CELLREAD_H
#define LATLAB_CELLREAD_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"

/* The largest cell.ini or sysinfo.ini read (bytes). */
#define CELL_INI_MAX (1 << 20)

/*
 * [section] key of the cell's ini file f (CELLF_INI or CELLF_SYSINFO) in
 * DIR, into out; "" when the file, the section or the key is not there.
 */
void cell_ini_get(const char *dir, enum cell_file f, const char *section,
		  const char *key, char *out, size_t len);

/*
 * The cell's file f in DIR for reading: a regular file of at most max
 * bytes (LLONG_MAX: any, for a reader that reads only its start). NULL
 * with errno set and "PATH: why" in err.
 */
FILE *cell_file_open(const char *dir, enum cell_file f, long long max,
		     char *err, size_t errlen);

#endif
