/*
** astar_int.h -- private layouts shared by the core files (graph.c, grid.c,
** search.c).  Not installed, not part of the API: only astar.h is public.
*/
#ifndef ASTAR_INT_H
#define ASTAR_INT_H

#include "astar.h"

#if defined(__GNUC__)
#define ASTAR_INLINE static inline __attribute__((always_inline))
#define ASTAR_LIKELY(x) __builtin_expect(!!(x), 1)
#define ASTAR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ASTAR_INLINE static inline
#define ASTAR_LIKELY(x) (x)
#define ASTAR_UNLIKELY(x) (x)
#endif

#define ASTAR_SQRT2 1.41421356237309504880

/* memory (util.c) --------------------------------------------------------- */

/* Allocator calls go through here so a NULL allocator means realloc/free. */
void *astar__mem(astar_alloc_fn f, void *ud, void *p, size_t osize,
                 size_t nsize);
/* Grows *arr (holding *cap elements of `size` bytes) to at least `need`
** elements, geometrically.  0 on success; ENOMEM leaves *arr and *cap as they
** were.  New elements are uninitialised. */
int astar__grow(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                size_t need, size_t size);
/* The same to exactly `need` elements: for arrays sized by the topology,
** where doubling would only waste memory. */
int astar__resize(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                  size_t need, size_t size);

/* graph ------------------------------------------------------------------- */

typedef struct astar_node_rec {
  double x, y, z;
  int32_t enabled;
} astar_node_rec;

typedef struct astar_edge_rec {
  int32_t from, to;
  double cost;
  int32_t tag;
  int32_t slot;              /* position in adj[] while the CSR is valid */
} astar_edge_rec;

/* One outgoing edge in the CSR adjacency: the data the search loop reads,
** contiguous per source node. */
typedef struct astar_adj {
  double cost;
  int32_t to, edge;
} astar_adj;

struct astar_graph {
  astar_alloc_fn alloc;
  void *ud;
  int32_t nn, ne;            /* node and edge counts */
  size_t ncap, ecap;
  astar_node_rec *nodes;     /* ncap */
  astar_edge_rec *edges;     /* ecap */
  /* CSR adjacency, rebuilt lazily when nodes or edges were added */
  int csr_valid;
  size_t first_cap, adj_cap;
  int32_t *first;            /* nn + 1 offsets into adj */
    astar_adj *adj;            /* ne entries grouped by source, insertion order */
  /* incoming edges, built only for reverse distance searches */
  int rcsr_valid;
  size_t rfirst_cap, redge_cap;
  int32_t *rfirst;           /* nn + 1 offsets into redge */
  int32_t *redge;            /* edge ids grouped by destination */
  uint32_t version;          /* bumped by every mutation */
  int lock;                  /* > 0 while searched: mutators refuse */
};

/* Builds the CSR arrays if stale.  0 or ENOMEM. */
int astar__graph_prepare(astar_graph *g);
/* The same for the incoming-edge arrays. */
int astar__graph_prepare_reverse(astar_graph *g);

/* grid -------------------------------------------------------------------- */

/* Cells are stored with a one-cell blocked border (padded width pw = w + 2),
** so the search loop never checks bounds.  Padded index p = (y + 1) * pw +
** (x + 1). */
struct astar_grid {
  astar_alloc_fn alloc;
  void *ud;
  int32_t w, h, pw, ph;
  int diagonal;
  unsigned char *blocked;    /* pw * ph; 1 blocked (the border too) */
  unsigned char *moves;      /* pw * ph; bit d: the step in direction d is
                             ** allowed by the blocked cells and the diagonal
                             ** rule (kept current by set_blocked) */
  double *cost;              /* pw * ph or NULL while every cost is 1 */
  uint16_t *tag;             /* pw * ph or NULL while every tag is 0 */
  int32_t off[8];            /* padded offsets of the 8 directions */
  uint32_t version;
  int lock;
};

/* Directions 0..3 cardinal (E, W, S, N), 4..7 diagonal (SE, NE, SW, NW). */
extern const int astar__dx[8], astar__dy[8];

/* search ------------------------------------------------------------------ */

/* Per-node state read on every relaxation, valid only when stamp == the
** search's generation: 16 bytes, four to a cache line.  The parent link
** (written only when g improves) and the by-g heap position (optimal stop
** only) live in their own arrays. */
typedef struct astar_node {
  double g;
  uint32_t stamp;
  int32_t pos;               /* position in the open heap; -1 when not open */
} astar_node;

/* 16 bytes.  fkey is the bit pattern of f (f >= 0 and never NaN, and the
** bits of non-negative doubles order like their values, so the heap compares
** integers); then a 32-bit tie key, smaller first: the float bits of h for
** high_g (with f equal, larger g is smaller h), a sequence number for fifo,
** 0 in the by-g heap. */
typedef struct astar_heap_item {
  uint64_t fkey;
  int32_t node;
  uint32_t k;
} astar_heap_item;

typedef struct astar_heap {
  astar_heap_item *a;
  size_t n, cap;
} astar_heap;

#endif
