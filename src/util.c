/*
** util.c -- allocation helpers and status names for the astar core.
*/
#include <stdlib.h>

#include "astar_int.h"

const char *astar_version(void) { return ASTAR_VERSION; }

void *astar__mem(astar_alloc_fn f, void *ud, void *p, size_t osize,
                 size_t nsize) {
  if (f != NULL) return f(ud, p, osize, nsize);
  if (nsize == 0) {
    free(p);
    return NULL;
  }
  return realloc(p, nsize);
}

int astar__resize(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                  size_t need, size_t size) {
  void *p;
  if (need <= *cap) return ASTAR_OK;
  if (need > ((size_t)-1) / size) return ASTAR_ENOMEM;
  p = astar__mem(f, ud, *arr, *cap * size, need * size);
  if (p == NULL) return ASTAR_ENOMEM;
  *arr = p;
  *cap = need;
  return ASTAR_OK;
}

int astar__grow(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                size_t need, size_t size) {
  size_t ncap;
  void *p;
  if (need <= *cap) return ASTAR_OK;
  if (need > ((size_t)-1) / 2 / size) return ASTAR_ENOMEM;
  ncap = *cap < 16 ? 16 : *cap;
  while (ncap < need) ncap *= 2;
  p = astar__mem(f, ud, *arr, *cap * size, ncap * size);
  if (p == NULL) return ASTAR_ENOMEM;
  *arr = p;
  *cap = ncap;
  return ASTAR_OK;
}

void astar__release(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                    size_t size) {
  if (*arr != NULL) astar__mem(f, ud, *arr, *cap * size, 0);
  *arr = NULL;
  *cap = 0;
}

const char *astar_status_name(int status) {
  switch (status) {
    case ASTAR_OK: return "ok";
    case ASTAR_FOUND: return "found";
    case ASTAR_SEARCHING: return "searching";
    case ASTAR_UNREACHABLE: return "unreachable";
    case ASTAR_MAX_EXPANSIONS: return "max_expansions";
    case ASTAR_MAX_COST: return "max_cost";
    case ASTAR_ENOMEM: return "not enough memory";
    case ASTAR_EINVAL: return "invalid argument";
    case ASTAR_EHEURISTIC: return "bad heuristic value";
    case ASTAR_ECOST: return "bad cost value";
    case ASTAR_ECALLBACK: return "callback aborted the search";
    case ASTAR_ECHANGED: return "topology changed since the search began";
    case ASTAR_EBUSY: return "topology is being searched";
    case ASTAR_ESTATE: return "no search in progress";
    case ASTAR_EOVERFLOW: return "path cost overflow";
    default: return "unknown status";
  }
}
