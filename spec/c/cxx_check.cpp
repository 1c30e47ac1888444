// cxx_check.cpp -- a C++ engine's view of the core: dist/astar.c compiled
// as C, this file as C++ against dist/astar.h (its extern "C" guard gives
// the functions C linkage), linked with g++ (make dist-check).  Without the
// guard the link fails: undefined reference to `astar_version()'.
#include <cstdio>
#include <cstring>
#include <vector>

#include "astar.h"

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "cxx_check: failed: %s\n", what);
    failures++;
  }
}

// A grid owned by a C++ object: the way an engine wraps the handle.
class Grid {
 public:
  Grid(int32_t w, int32_t h) : g_(astar_grid_new(w, h, ASTAR_DIAG_ALWAYS, NULL, NULL)) {}
  ~Grid() { astar_grid_free(g_); }
  astar_grid *get() const { return g_; }

 private:
  Grid(const Grid &);
  Grid &operator=(const Grid &);
  astar_grid *g_;
};

}  // namespace

int main() {
  check(std::strcmp(astar_version(), ASTAR_VERSION) == 0, "astar_version() == ASTAR_VERSION");
  Grid grid(20, 20);
  check(grid.get() != NULL, "astar_grid_new");
  for (int32_t y = 2; y < 18; y++) astar_grid_set_blocked(grid.get(), 10, y, 1);  // a wall, gaps at both ends
  astar_search *s = astar_search_new(NULL, NULL);
  astar_query q;
  astar_query_init(&q, 10 * 20 + 1, 10 * 20 + 18);  // (1, 10) to (18, 10)
  double cost = -1;
  std::vector<int32_t> nodes(400);
  int32_t n = 0;
  if (astar_search_begin(s, astar_grid_topology(grid.get()), &q) == ASTAR_OK &&
      astar_search_step(s, 0) == ASTAR_FOUND)
    n = astar_search_path(s, q.goal, &nodes[0], NULL, &cost);
  check(n > 0 && nodes[0] == q.start && nodes[static_cast<size_t>(n - 1)] == q.goal, "a path around the wall");
  check(cost > 17, "the path goes around the wall (cost above the straight 17)");
  std::printf("cxx_check: C++ linked against the core %s: a path of %d cells, cost %.4f\n", astar_version(),
              static_cast<int>(n), cost);
  astar_search_free(s);
  return failures == 0 ? 0 : 1;
}
