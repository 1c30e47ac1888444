/*
** stopbits.h -- the scans of jump point search over bit sets (jps.c): the
** bit helpers and the scans of the grid's own lines, which read their stop
** bits (stopbits.c builds and keeps them; the units' sets have no stop
** bits and are scanned three lines at a time in jps.c).  Private to the
** core.
*/
#ifndef ASTAR_STOPBITS_H
#define ASTAR_STOPBITS_H

#include "lattice.h"

/* ------------------------------------------------------------------------ */
/* bit scans                                                                  */
/* ------------------------------------------------------------------------ */

#if defined(__GNUC__)
ASTAR_INLINE int low_bit(uint64_t x) { return __builtin_ctzll(x); }
ASTAR_INLINE int high_bit(uint64_t x) { return 63 - __builtin_clzll(x); }
#else
ASTAR_INLINE int low_bit(uint64_t x) {
  int i = 0;
  while (!(x & 1)) x >>= 1, i++;
  return i;
}
ASTAR_INLINE int high_bit(uint64_t x) {
  int i = 63;
  while (!(x >> 63)) x <<= 1, i--;
  return i;
}
#endif

/*
** The scans of the grid's own lines (m: the line's first word) read their
** stop bits (stopbits.c), word k of them beside word k of the open bits
** (lattice.h: LAT_UP_W, LAT_OPEN_W, LAT_DOWN_W): the cells where the
** three-window scans stop, one word instead of three.  The stop's open bit
** says which it is (*dead: blocked).  Every line ends in set bits (the
** border cells and the bits past a line's end), so every scan stops.
*/
ASTAR_INLINE int32_t stop_up(const uint64_t *m, int32_t i, int *dead) {
  size_t k = (size_t)i >> 6;
  uint64_t st = m[LAT_UP_W(k)] & (~(uint64_t)1 << (i & 63)); /* the bits past i's (none at 63) */
  int j;
  while (!st) st = m[LAT_UP_W(++k)];
  j = low_bit(st);
  *dead = !(m[LAT_OPEN_W(k)] >> j & 1);
  return (int32_t)(k << 6) + j;
}

ASTAR_INLINE int32_t stop_down(const uint64_t *m, int32_t i, int *dead) {
  size_t k = (size_t)i >> 6;
  uint64_t st = m[LAT_DOWN_W(k)] & (((uint64_t)1 << (i & 63)) - 1);
  int j;
  while (!st) st = m[LAT_DOWN_W(--k)];
  j = high_bit(st);
  *dead = !(m[LAT_OPEN_W(k)] >> j & 1);
  return (int32_t)(k << 6) + j;
}

/* stop_up bounded: no position past lim is reported; a run still open
** there is cut at lim (*dead 2: the cells up to lim are open and none
** stops the run). */
ASTAR_INLINE int32_t stop_up_lim(const uint64_t *m, int32_t i, int *dead, int32_t lim) {
  size_t k = (size_t)i >> 6;
  uint64_t st = m[LAT_UP_W(k)] & (~(uint64_t)1 << (i & 63));
  for (;;) {
    if (st) {
      int j = low_bit(st);
      if ((int32_t)(k << 6) + j > lim) break;
      *dead = !(m[LAT_OPEN_W(k)] >> j & 1);
      return (int32_t)(k << 6) + j;
    }
    if ((int32_t)(k << 6) + 63 >= lim) break;
    st = m[LAT_UP_W(++k)];
  }
  *dead = 2;
  return lim;
}

/* stop_down bounded: none below lim. */
ASTAR_INLINE int32_t stop_down_lim(const uint64_t *m, int32_t i, int *dead, int32_t lim) {
  size_t k = (size_t)i >> 6;
  uint64_t st = m[LAT_DOWN_W(k)] & (((uint64_t)1 << (i & 63)) - 1);
  for (;;) {
    if (st) {
      int j = high_bit(st);
      if ((int32_t)(k << 6) + j < lim) break;
      *dead = !(m[LAT_OPEN_W(k)] >> j & 1);
      return (int32_t)(k << 6) + j;
    }
    if ((int32_t)(k << 6) <= lim) break;
    st = m[LAT_DOWN_W(--k)];
  }
  *dead = 2;
  return lim;
}

/* The first word of the group (LAT_GROUP words) holding position i of line
** l, in lines (the grid's rows or cols) stride words apart. */
ASTAR_INLINE const uint64_t *stop_group(const uint64_t *lines, int32_t stride, int32_t l, int32_t i) {
  return lines + l * (ptrdiff_t)stride + LAT_UP_W(i >> 6);
}

/*
** The scans of a diagonal run (jps.c diag_run), which steps one cell a time
** along both lines at once and keeps, for each, a pointer w to the stop
** word holding its cell (LAT_UP_W of the cell's word scanning up,
** LAT_DOWN_W down) and the cell's bit b in it, so no position is turned
** into a word a step: the steps from the cell to the first jump point, 0
** when the run ends in a wall first (the stop is blocked).
*/
ASTAR_INLINE int32_t stop_steps_up(const uint64_t *w, int b) {
  uint64_t st = *w & (~(uint64_t)1 << b);
  int32_t n = 0;
  int j;
  while (!st) st = *(w += LAT_GROUP), n += 64;
  j = low_bit(st);
  return (w[LAT_OPEN_W(0) - LAT_UP_W(0)] >> j & 1) ? n + j - b : 0; /* the open word */
}

ASTAR_INLINE int32_t stop_steps_down(const uint64_t *w, int b) {
  uint64_t st = *w & (((uint64_t)1 << b) - 1);
  int32_t n = 0;
  int j;
  while (!st) st = *(w -= LAT_GROUP), n += 64;
  j = high_bit(st);
  return (*(w - (LAT_DOWN_W(0) - LAT_OPEN_W(0))) >> j & 1) ? n + b - j : 0; /* the open word */
}

#endif
