/*
** stopbits.h -- the scans of jump point search over bit sets (jps.c): the
** bit helpers and the scans of the grid's own lines, which read their stop
** bits (stopbits.c builds and keeps them).  Private to the core.
*/
#ifndef ASTAR_STOPBITS_H
#define ASTAR_STOPBITS_H

#include <string.h>

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

/* Windows that start at the cell (warthog's trick, little-endian): the 8
** bytes from the byte holding cell i put i and 56+ cells past (or before) it
** in one word wherever i sits in its word; read only inside the line. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JPS_WINDOWS 1
ASTAR_INLINE uint64_t window_at(const uint64_t *m, size_t byte) {
  uint64_t w;
  memcpy(&w, (const unsigned char *)m + byte, sizeof w);
  return w;
}
#endif

/*
** The scans of the grid's own lines read their stop bits (stopbits.c: sw
** words past the line toward higher positions, 2 * sw toward lower ones):
** the cells where the scans above stop, one window instead of three.  The
** stop's open bit in m says which it is (*dead: blocked).
*/
ASTAR_INLINE int32_t stop_at(const uint64_t *m, int32_t j, int *dead) {
  *dead = !(m[(size_t)j >> 6] >> (j & 63) & 1);
  return j;
}

ASTAR_INLINE int32_t stop_up(const uint64_t *m, size_t sw, size_t words, int32_t i, int *dead) {
  const uint64_t *s = m + sw;
  size_t k;
  uint64_t st;
  (void)words;
#ifdef JPS_WINDOWS
  {
    size_t byte = (size_t)i >> 3;
    if (byte + 8 <= words * 8) {          /* cells byte * 8 on, cell i at bit i & 7 */
      uint64_t open = window_at(m, byte); /* read beside the stops: no wait after */
      st = window_at(s, byte) & (~(uint64_t)1 << (i & 7));
      if (st) {
        int j = low_bit(st);
        *dead = !(open >> j & 1);
        return (int32_t)(byte * 8) + j;
      }
      i = (int32_t)(byte * 8) + 63; /* the last cell seen */
    }
  }
#endif
  k = (size_t)i >> 6;
  st = s[k] & (~(uint64_t)1 << (i & 63)); /* the bits past i's (none at 63) */
  while (!st) st = s[++k];
  return stop_at(m, (int32_t)(k << 6) + low_bit(st), dead);
}

ASTAR_INLINE int32_t stop_down(const uint64_t *m, size_t sw, int32_t i, int *dead) {
  const uint64_t *s = m + 2 * sw;
  size_t k;
  uint64_t st;
#ifdef JPS_WINDOWS
  {
    size_t byte = (size_t)i >> 3;
    if (byte >= 7) { /* cells (byte - 7) * 8 on, cell i at bit 56 + (i & 7) */
      uint64_t open = window_at(m, byte - 7);
      st = window_at(s, byte - 7) & (((uint64_t)1 << (56 + (i & 7))) - 1);
      if (st) {
        int j = high_bit(st);
        *dead = !(open >> j & 1);
        return (int32_t)((byte - 7) * 8) + j;
      }
      i = (int32_t)((byte - 7) * 8); /* the last cell seen */
    }
  }
#endif
  k = (size_t)i >> 6;
  st = s[k] & (((uint64_t)1 << (i & 63)) - 1);
  while (!st) st = s[--k];
  return stop_at(m, (int32_t)(k << 6) + high_bit(st), dead);
}

/* stop_up bounded as scan_up_lim (*dead 2: cut at lim). */
ASTAR_INLINE int32_t stop_up_lim(const uint64_t *m, size_t sw, int32_t i, int *dead, int32_t lim) {
  const uint64_t *s = m + sw;
  size_t k = (size_t)i >> 6;
  uint64_t st = s[k] & (~(uint64_t)1 << (i & 63));
  for (;;) {
    if (st) {
      int32_t j = (int32_t)(k << 6) + low_bit(st);
      if (j > lim) break;
      return stop_at(m, j, dead);
    }
    if ((int32_t)(k << 6) + 63 >= lim) break;
    st = s[++k];
  }
  *dead = 2;
  return lim;
}

/* stop_down bounded as scan_down_lim. */
ASTAR_INLINE int32_t stop_down_lim(const uint64_t *m, size_t sw, int32_t i, int *dead, int32_t lim) {
  const uint64_t *s = m + 2 * sw;
  size_t k = (size_t)i >> 6;
  uint64_t st = s[k] & (((uint64_t)1 << (i & 63)) - 1);
  for (;;) {
    if (st) {
      int32_t j = (int32_t)(k << 6) + high_bit(st);
      if (j < lim) break;
      return stop_at(m, j, dead);
    }
    if ((int32_t)(k << 6) <= lim) break;
    st = s[--k];
  }
  *dead = 2;
  return lim;
}

#endif
