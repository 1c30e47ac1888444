/*
** Build (from the repository root): make build/alloc_test, which compiles
** this file with the module's sources (CORE_SRC and BINDING of
** src/sources.mk) against the Lua 5.4 library:
**   cc -std=c99 -O1 -g -Wall -Wextra -Isrc -I/usr/include/lua5.4 -o build/alloc_test spec/c/alloc_test.c \
**      <CORE_SRC> <BINDING> -llua5.4 <LIBS>
** Run:   ./build/alloc_test [repo-root [every]]  (default ".": needs lua/astar.lua)
**   every: run every Nth budget of the sweep (2. below; default 1, all of
**   them): make memcheck runs `./build/alloc_test . 8` under valgrind, the
**   full sweep running natively (make test) and under ASan + UBSan (make
**   check)
** Valgrind:
**   valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 ./build/alloc_test . 8
**
** alloc_test.c -- allocation failure, simulated.
**
** A lua_State made with lua_newstate and an allocator that has a byte budget:
** any allocation (or growth) that would take the live total past the budget
** fails (returns NULL), exactly as a real out-of-memory would.  The binding
** takes its C allocator from the state (lua_getallocf), so the C core's
** graphs, grids and search buffers are under the same budget as Lua's own
** objects.  The allocator also keeps each block's size in a header and checks
** the `osize` every caller passes against it (the lua_Alloc contract: a
** wrong osize breaks every allocator that relies on it, pool allocators,
** accounting like this one).
**
**  1. Huge grids, maps, graphs, fields and searches under a small budget must
**     fail with a Lua error containing "not enough memory" (never a crash,
**     an abort or another error), and the state must stay usable: with the
**     budget lifted, a small grid finds a path and the objects that met the
**     failure still answer queries.  (astar.grid(60000, 60000) is past the
**     documented 2^30-cell limit: the binding refuses it by size, "grid too
**     large", before allocating; that refusal is accepted and noted.)
**  2. A budget sweep, from nothing to comfortable in small steps, over one
**     script that builds a graph (nodes, edges, tags), runs find_path with
**     trace, visited, costs, Lua callbacks and the optimal stop, builds a grid
**     from a string with a legend, searches it with a field as penalty and
**     another as forbid, steps a time-sliced query and builds distance
**     fields (graph and grid).  At every budget the script either completes with
**     the reference results or raises a Lua "not enough memory" error; then,
**     budget lifted, the objects it left behind and fresh ones answer
**     queries with the reference results.
**  3. lua_close, after which every byte must have been given back.
**
** Problems (each printed): a wrong result, an error other than "not enough
** memory", a Lua warning (an error in a __gc), a wrong osize, bytes left after
** lua_close.  The last line is the summary; exit 0 only with no problem.
*/
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int luaopen_astar_core(lua_State *L);

/* ------------------------------------------------------------------------ */
/* the budget allocator                                                       */
/* ------------------------------------------------------------------------ */

typedef union header {
  size_t size;
  long double align_ld; /* keeps the user block maximally aligned */
  void *align_p;
  double align_d;
} header;

typedef struct budget {
  size_t used;       /* live bytes (user sizes) */
  size_t limit;      /* budget while limited */
  int limited;
  unsigned long refused;
  unsigned long bad_osize;
  size_t first_bad_osize, first_bad_real;
} budget;

static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  budget *b = (budget *)ud;
  header *h = ptr ? (header *)ptr - 1 : NULL;
  size_t old = h ? h->size : 0;
  header *nh;
  if (h != NULL && old != osize) {
    if (b->bad_osize++ == 0) {
      b->first_bad_osize = osize;
      b->first_bad_real = old;
    }
  }
  if (nsize == 0) {
    if (h != NULL) {
      b->used -= old;
      free(h);
    }
    return NULL;
  }
  if (b->limited && nsize > old &&
      (nsize - old > b->limit || b->used + (nsize - old) > b->limit)) {
    b->refused++;
    return NULL;
  }
  if (nsize > (size_t)-1 - sizeof(header)) return NULL;
  nh = (header *)realloc(h, sizeof(header) + nsize);
  if (nh == NULL) return NULL;
  b->used = b->used - old + nsize;
  nh->size = nsize;
  return nh + 1;
}

/* ------------------------------------------------------------------------ */
/* bookkeeping                                                                */
/* ------------------------------------------------------------------------ */

static budget B;
static int problems = 0, budgets = 0, completed = 0, failed_clean = 0;
static int warnings = 0;

static void problem(const char *what, const char *detail) {
  problems++;
  if (problems <= 30) fprintf(stderr, "alloc_test: PROBLEM: %s%s%s\n", what,
                              detail ? ": " : "", detail ? detail : "");
}

#if LUA_VERSION_NUM >= 504
static void warnf(void *ud, const char *msg, int tocont) {
  (void)ud;
  (void)tocont;
  warnings++;
  problem("Lua warning (an error in a __gc metamethod?)", msg);
}
#endif

/* Runs code with the budget set `extra` bytes above the live total (after a
** full collection), or unlimited when extra == (size_t)-1.  Returns 1 when
** the chunk completed, 0 when it failed with "not enough memory"; any other
** outcome is a problem (returns -1).  The error message is left in *msg
** (static copy). */
static char last_msg[512];
static int run_budget(lua_State *L, const char *code, size_t extra) {
  int status;
  lua_settop(L, 0);
  lua_gc(L, LUA_GCCOLLECT, 0);
  lua_gc(L, LUA_GCCOLLECT, 0);
  if (extra != (size_t)-1) {
    B.limit = B.used + extra;
    B.limited = 1;
  }
  /* luaL_dostring, keeping the status (the macro gives only 0 / 1) */
  status = luaL_loadstring(L, code);
  if (status == LUA_OK) status = lua_pcall(L, 0, LUA_MULTRET, 0);
  B.limited = 0;
  last_msg[0] = 0;
  if (status == LUA_OK) {
    lua_settop(L, 0);
    return 1;
  }
  {
    const char *m = lua_tostring(L, -1);
    snprintf(last_msg, sizeof last_msg, "%s", m ? m : "(error object is not a string)");
  }
  lua_settop(L, 0);
  if ((status == LUA_ERRMEM || status == LUA_ERRRUN) &&
      strstr(last_msg, "not enough memory") != NULL)
    return 0;
  return -1;
}

/* Runs code with no budget; it must succeed. */
static int must(lua_State *L, const char *what, const char *code) {
  int r = run_budget(L, code, (size_t)-1);
  if (r != 1) {
    char buf[700];
    snprintf(buf, sizeof buf, "%s: %s", what, last_msg);
    problem("a query failed with the budget lifted", buf);
  }
  return r == 1;
}

/* ------------------------------------------------------------------------ */
/* the Lua side                                                               */
/* ------------------------------------------------------------------------ */

static const char *setup_code =
    "astar = require('astar')\n"
    "W = {}\n"
    "MAP = table.concat({\n"
    "  '..........~~~.........',\n"
    "  '.######...~~~..######.',\n"
    "  '......#...~~~..#......',\n"
    "  '.####.#..MMMM..#.####.',\n"
    "  '......#........#......',\n"
    "  '.######.######.######.',\n"
    "  '......................',\n"
    "}, '\\n')\n"
    "LEGEND = { ['~'] = { cost = 3, tag = 'mud' }, M = 'marsh' }\n"
    /* the script of the sweep: every result it returns is compared with the
    ** reference run; W keeps the objects so that the check after a failure
    ** can use them */
    "function work()\n"
    "  local g = astar.graph()\n"
    "  W.graph = g\n"
    "  for i = 1, 40 do g:add_node(i % 8, math.floor(i / 8), i % 3) end\n"
    "  for i = 1, 39 do g:add_edge(i, i + 1, 1 + i % 3, i % 5 == 0 and 'door' or nil) end\n"
    "  for i = 1, 32, 3 do g:connect(i, i + 8, 9, 'long') end\n"
    "  W.graph_built = true\n"
    "  local p = assert(g:find_path(1, 40, { trace = true, visited = true, costs = { door = 2 } }))\n"
    "  local q = assert(g:find_path(1, 40, { stop = 'optimal', tie_break = 'fifo',\n"
    "    heuristic = function(n, goal) return (goal - n) * 0.5 end,\n"
    "    cost = function(a, b, c, e) if e == 7 then return false end return c end }))\n"
    "  local u, why, st = g:find_path(40, 1, { visited = true, trace = true })\n"
    "  assert(u == nil and why == 'unreachable')\n"
    "  local gr = astar.grid_from_string(MAP, LEGEND)\n"
    "  W.grid = gr\n"
    "  local danger = astar.field(gr)\n"
    "  danger:add_disc(12, 4, 2, 5)\n"
    "  local wall = astar.field(gr)\n"
    "  wall:set(8, 7, 1)\n"
    "  local seen = gr:visible_from(1, 7, 10)\n"
    "  local r = assert(gr:find_path(1, 1, 22, 7, { penalty = danger, forbid = wall,\n"
    "    trace = true, visited = true, costs = { marsh = 2 } }))\n"
    "  local s = gr:to_string(r)\n"
    /* a time-sliced query and a distance field */
    "  local tq = g:query(1, 40, { trace = true, costs = { door = 2 } })\n"
    "  while tq:step(7) == 'searching' do end\n"
    "  local tp = assert(tq:result())\n"
    "  local dist = gr:distances({ { 22, 7 } }, { penalty = danger })\n"
    "  local nx, ny = dist:next_step(1, 1)\n"
    "  local gd, gt = g:distances({ 40 }, { direction = 'to_sources' })\n"
    "  local los = gr:line_of_sight(1, 7, 22, 7)\n"
    /* a sized unit: the clearance layer, built on first need */
    "  local big = assert(gr:find_path(8, 1, 13, 3, { size = 2, costs = { marsh = 2 } }))\n"
    "  local cl, los2 = gr:clearance(8, 3), gr:line_of_sight(8, 1, 13, 1, 2)\n"
    "  gr:set_tag(5, 5, 'x'); gr:set_cost(6, 5, 2)\n"
    /* the map as a Lua table and back, and the bulk edits */
    "  local rows = gr:to_table()\n"
    "  local gt2 = astar.grid_from_table(rows, { [2] = { cost = 3, tag = 'y' } })\n"
    "  gt2:set_blocked_rect(2, 2, 3, 3, true); gt2:set_blocked_cells({ { 5, 1 }, { 6, 1 } }, true)\n"
    /* bulk costs and tags on a grid without those layers: the first cell's
    ** edit allocates the layer, a new tag name is interned */
    "  local gb = astar.grid_from_table({ { 0, 0, 0 }, { 0, 1, 0 } }, { diagonal = 'never' })\n"
    "  gb:set_cost_rect(1, 1, 3, 1, 2); gb:set_tag_cells({ { 3, 2 }, { 1, 1 } }, 'z')\n"
    "  gb:set_tag_rect(1, 1, 2, 2, 'w'); gb:set_cost_cells({ { 2, 2 } }, 4)\n"
    /* a hex grid: its cost and tag layers, a field, LOS, text */
    "  local hx = astar.hex(9, 7, { layout = 'odd_q' })\n"
    "  hx:set_blocked(4, 2, true); hx:set_cost(5, 5, 2); hx:set_tag(6, 6, 'mud')\n"
    "  local hf = astar.field(hx); hf:add_disc(5, 4, 1, 3)\n"
    "  local hp = assert(hx:find_path(1, 1, 9, 7, { penalty = hf, trace = true, visited = true,\n"
    "    costs = { mud = 3 } }))\n"
    "  local hd = hx:distances({ { 9, 7 } })\n"
    "  local hv = hx:visible_from(1, 1, 4)\n"
    "  local hs = hx:to_string(hp)\n"
    /* components by sector: built, edited, asked what if; a graph's cut */
    "  local eg = astar.grid(40, 40)\n"
    "  for y = 1, 39 do eg:set_blocked(20, y, true) end\n"
    "  local ec1 = eg:connected(1, 1, 40, 1)\n"
    /* the jump table: built, searched, repaired by an edit */
    "  eg:precompute_jumps()\n"
    "  local ej = assert(eg:find_path(1, 1, 40, 1, { algorithm = 'jps+' }))\n"
    "  local ew = eg:would_disconnect(20, 40, { { 1, 1 }, { 40, 1 } })\n"
    "  eg:set_blocked(20, 40, true)\n"
    "  local ec2 = eg:connected(1, 1, 40, 1)\n"
    "  local hw = hx:would_disconnect(5, 5, { { 1, 1 }, { 9, 7 } })\n"
    "  local gw = g:would_disconnect(20, { 1, 40 })\n"
    "  g:set_enabled(20, false)\n"
    "  local gc = g:connected(1, 40)\n"
    "  g:set_enabled(20, true)\n"
    "  return table.concat({ hp.cost, #hp.nodes, #hp.trace, hd:get(1, 1), hv:get(3, 2), hs,\n"
    "    p.cost, #p.nodes, #p.trace, #p.visited, q.cost, #q.nodes,\n"
    "    st.expanded, #st.visited, r.cost, #r.nodes, #r.trace, #r.visited, s,\n"
    "    seen:get(22, 7), tostring(los), gr:get_tag(5, 5), gr:get_cost(6, 5),\n"
    "    tp.cost, #tp.trace, dist:get(1, 1), nx, ny, gd[1], gt[1], big.cost, cl,\n"
    "    tostring(los2), tostring(ec1), tostring(ew), tostring(ec2), tostring(hw),\n"
    "    tostring(gw), tostring(gc), #rows, #rows[1], gt2:to_string(), ej.cost }, '|')\n"
    "end\n"
    /* queries on the objects a failed run left behind; fresh objects too */
    "function check()\n"
    "  local g = astar.graph()\n"
    "  local a, b = g:add_node(0, 0), g:add_node(3, 4)\n"
    "  g:add_edge(a, b, 5)\n"
    "  assert(g:find_path(a, b, { trace = true, visited = true }).cost == 5)\n"
    "  local small = astar.grid(5, 5)\n"
    "  assert(small:find_path(1, 1, 5, 5).cost == 4 * astar.DIAGONAL)\n"
    "  local G = W.graph\n"
    "  if G then\n"
    "    if W.graph_built then\n"
    "      local p = assert(G:find_path(1, 40, { trace = true, visited = true, costs = { door = 2 } }))\n"
    "      assert(table.concat({ p.cost, #p.nodes, #p.trace, #p.visited }, '|') == REF_P,\n"
    "        'graph left by a failed run answers differently')\n"
    "    end\n"
    "    local x, y = G:add_node(100, 100), G:add_node(101, 100)\n"
    "    G:add_edge(x, y, 1, 'door')\n"
    "    assert(G:find_path(x, y, { trace = true, visited = true }).cost == 1)\n"
    "  end\n"
    "  if W.grid then\n"
    "    local r = assert(W.grid:find_path(1, 1, 22, 7, { trace = true, visited = true }))\n"
    "    assert(r.cost == REF_GRID, 'grid left by a failed run answers differently')\n"
    "  end\n"
    "  W = {}\n"
    "end\n"
    "REF = work()\n"
    "do\n"
    "  local p = W.graph:find_path(1, 40, { trace = true, visited = true, costs = { door = 2 } })\n"
    "  REF_P = table.concat({ p.cost, #p.nodes, #p.trace, #p.visited }, '|')\n"
    "  REF_GRID = astar.grid_from_string(MAP, LEGEND):find_path(1, 1, 22, 7).cost\n"
    "end\n"
    "W = {}\n";

/* Huge objects under a small budget: each must fail with "not enough memory"
** (or, for sizes past the documented limits, a clean argument error), then
** the state and the named objects must work with the budget lifted. */
typedef struct huge_case {
  const char *name;
  const char *prepare; /* run unlimited first (or NULL) */
  const char *code;    /* run under the budget: must fail */
  size_t extra;        /* budget above the live total */
  int size_error_ok;   /* "grid too large" is an acceptable refusal */
  const char *after;   /* run unlimited afterwards: must succeed */
} huge_case;

static const huge_case huge_cases[] = {
    {"astar.grid(60000, 60000)", NULL, "local g = astar.grid(60000, 60000)", 1 << 20, 1,
     "assert(astar.grid(60, 60):find_path(1, 1, 60, 60))"},
    {"astar.grid(32767, 32767)", NULL, "local g = astar.grid(32767, 32767)", 1 << 20, 0,
     "assert(astar.grid(8, 8):find_path(1, 1, 8, 8))"},
    {"astar.grid(65535, 16383, never)", NULL,
     "local g = astar.grid(65535, 16383, { diagonal = 'never' })", 8 << 20, 0,
     "assert(astar.grid(8, 8, { diagonal = 'never' }):find_path(1, 1, 8, 8).cost == 14)"},
    {"astar.hex(32767, 32767)", NULL, "local g = astar.hex(32767, 32767)", 1 << 20, 0,
     "assert(astar.hex(8, 8):find_path(1, 1, 8, 8).cost == 11)"},
    {"grid_from_string of a 3000x3000 map", "BIG = string.rep(string.rep('.', 3000) .. '\\n', 3000)",
     "local g = astar.grid_from_string(BIG)", 1 << 20, 0,
     "BIG = nil; assert(astar.grid_from_string('..#\\n...'):find_path(1, 1, 3, 2))"},
    {"a million graph nodes", "HG = astar.graph()",
     "for i = 1, 1000000 do HG:add_node(i, 0) end", 1 << 20, 0,
     "local n = HG:node_count(); assert(n > 0 and n < 1000000)\n"
     "local a, b = HG:add_node(0, 0), HG:add_node(1, 0); HG:add_edge(a, b, 1)\n"
     "assert(HG:find_path(a, b).cost == 1); HG:close(); HG = nil"},
    {"a million graph edges", "HE = astar.graph(); HE:add_node(0, 0); HE:add_node(1, 0)",
     "for i = 1, 1000000 do HE:add_edge(1, 2, i) end", 1 << 20, 0,
     "local n = HE:edge_count(); assert(n > 0 and n < 1000000)\n"
     "assert(HE:find_path(1, 2).cost == 1); HE = nil"},
    {"search state of a 2000x2000 grid", "HGRID = astar.grid(2000, 2000)",
     "local p = HGRID:find_path(1, 1, 2000, 2000, { trace = true, visited = true, algorithm = 'astar' })",
     1 << 20, 0,
     "local p = assert(HGRID:find_path(1, 1, 2000, 2000))\n"
     "assert(p.cost == 1999 * astar.DIAGONAL, p.cost); assert(#p.nodes == 2000)"},
    {"a field of a 2000x2000 grid", NULL, "local f = astar.field(HGRID, 1)", 1 << 20, 0,
     "local f = astar.field(astar.grid(4, 4), 1); assert(f:get(4, 4) == 1)"},
    {"visible_from on a 2000x2000 grid", NULL, "local f = HGRID:visible_from(1, 1, 3)", 1 << 20, 0,
     "assert(astar.grid(4, 4):visible_from(1, 1):get(4, 4) == 1)"},
    {"to_string of a 2000x2000 grid", NULL, "local s = HGRID:to_string()", 1 << 20, 0,
     "assert(#astar.grid(4, 4):to_string() == 20)"},
    {"a cost layer on a 2000x2000 grid", NULL, "HGRID:set_cost(5, 5, 2)", 1 << 20, 0,
     "HGRID:set_cost(5, 5, 3); assert(HGRID:get_cost(5, 5) == 3)"},
    {"a clearance layer on a 2000x2000 grid", NULL, "local k = HGRID:clearance(1, 1)", 1 << 20, 0,
     "assert(HGRID:clearance(1, 1) == 255 and HGRID:find_path(1, 1, 9, 9, { size = 3 }))"},
    {"a unit's bit sets on a 2000x2000 grid",
     "UG = astar.grid(2000, 2000); UG:clearance(1, 1); UG:find_path(1, 1, 9, 9)",
     "local p = UG:find_path(1, 1, 9, 9, { size = 2 })", 256 << 10, 0,
     "local p = assert(UG:find_path(1, 1, 1900, 9, { size = 2 }))\n"
     "local a = assert(UG:find_path(1, 1, 1900, 9, { size = 2, algorithm = 'astar' }))\n"
     "assert(p.cost == a.cost); UG:close(); UG = nil"},
    {"a jump table on a 2000x2000 grid", NULL, "HGRID:precompute_jumps()", 1 << 20, 0,
     "assert(not HGRID:has_jumps() and HGRID:find_path(1, 1, 9, 9))\n"
     "assert(astar.grid(9, 9):precompute_jumps():find_path(1, 1, 9, 9, { algorithm = 'jps+' }))"},
    {"a tag layer on a 2000x2000 grid", NULL, "HGRID:set_tag(5, 5, 'mud')", 1 << 20, 0,
     "HGRID:set_tag(5, 5, 'mud'); assert(HGRID:get_tag(5, 5) == 'mud')\n"
     "local p = assert(HGRID:find_path(1, 1, 9, 9, { costs = { mud = false } }))\n"
     "HGRID:close(); HGRID = nil"},
};

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  long every = argc > 2 ? atol(argv[2]) : 1;
  lua_State *L;
  size_t i, extra, step = 16, top = 0;
  char path[1024];
  const char *ref;
  char *refcopy;

  if (every < 1 || every > 1000) {
    fprintf(stderr, "alloc_test: every must be 1 to 1000, not %s\n", argv[2]);
    return 1;
  }
  step *= (size_t)every;
  L = lua_newstate(budget_alloc, &B);
  if (L == NULL) {
    fprintf(stderr, "alloc_test: cannot create a state\n");
    return 1;
  }
#if LUA_VERSION_NUM >= 504
  lua_setwarnf(L, warnf, NULL);
#endif
  luaL_openlibs(L);
  /* the module: astar.core straight from the linked sources, astar and
  ** astar.maps from lua/ */
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_astar_core);
  lua_setfield(L, -2, "astar.core");
  lua_pop(L, 1);
  snprintf(path, sizeof path, "%s/lua/?.lua;%s/lua/?/init.lua", root, root);
  lua_pushstring(L, path);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  if (luaL_dostring(L, setup_code) != LUA_OK) {
    fprintf(stderr, "alloc_test: setup failed: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  lua_getglobal(L, "REF");
  ref = lua_tostring(L, -1);
  refcopy = (char *)malloc(strlen(ref) + 1);
  strcpy(refcopy, ref);
  lua_pop(L, 1);

  /* 1. huge objects */
  for (i = 0; i < sizeof huge_cases / sizeof huge_cases[0]; i++) {
    const huge_case *c = &huge_cases[i];
    int r;
    budgets++;
    if (c->prepare && !must(L, c->name, c->prepare)) continue;
    r = run_budget(L, c->code, c->extra);
    if (r == 1) {
      problem("a huge allocation succeeded under a small budget", c->name);
    } else if (r == 0) {
      failed_clean++;
    } else if (c->size_error_ok && strstr(last_msg, "grid too large") != NULL) {
      failed_clean++;
      printf("alloc_test: note: %s is refused by size, not by memory: %s\n", c->name, last_msg);
    } else {
      char buf[700];
      snprintf(buf, sizeof buf, "%s: %s", c->name, last_msg);
      problem("a huge allocation failed with another error", buf);
    }
    must(L, c->name, c->after);
  }

  /* 2. the sweep: find how much the script needs, then every budget from 0
  ** to a little past that in steps of `step` bytes (16, times `every`) */
  {
    size_t before;
    lua_gc(L, LUA_GCCOLLECT, 0);
    before = B.used;
    lua_gc(L, LUA_GCSTOP, 0);
    must(L, "measure", "MEASURE = work()");
    top = B.used - before; /* with the collector stopped: everything allocated */
    lua_gc(L, LUA_GCRESTART, 0);
    must(L, "reset", "MEASURE = nil; W = {}");
  }
  for (extra = 0; extra <= top + 4096; extra += step) {
    int r;
    budgets++;
    r = run_budget(L, "RESULT = work()", extra);
    if (r == 1) {
      completed++;
      lua_getglobal(L, "RESULT");
      if (lua_tostring(L, -1) == NULL || strcmp(lua_tostring(L, -1), refcopy) != 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "budget +%lu", (unsigned long)extra);
        problem("the script completed with results unlike the reference", buf);
      }
      lua_pop(L, 1);
    } else if (r == 0) {
      failed_clean++;
    } else {
      char buf[700];
      snprintf(buf, sizeof buf, "budget +%lu: %s", (unsigned long)extra, last_msg);
      problem("the script failed with an error other than 'not enough memory'", buf);
    }
    {
      char what[64];
      snprintf(what, sizeof what, "check after budget +%lu", (unsigned long)extra);
      must(L, what, "RESULT = nil; check()");
    }
  }
  if (completed == 0) problem("no budget of the sweep was enough for the script", NULL);

  /* 3. close: every byte back */
  lua_close(L);
  if (B.used != 0) {
    char buf[64];
    snprintf(buf, sizeof buf, "%lu bytes", (unsigned long)B.used);
    problem("memory still allocated after lua_close", buf);
  }
  /* allocator contract (lua_close included) */
  if (B.bad_osize) {
    char buf[160];
    snprintf(buf, sizeof buf, "%lu frees/reallocs passed an osize unlike the block's size "
             "(first: osize %lu for a block of %lu bytes)", B.bad_osize,
             (unsigned long)B.first_bad_osize, (unsigned long)B.first_bad_real);
    problem("lua_Alloc contract broken", buf);
  }

  free(refcopy);
  printf("alloc_test: %d budgets (the sweep in steps of %lu bytes), %d completed, %d failed cleanly, "
         "%d problems\n", budgets, (unsigned long)step, completed, failed_clean, problems);
  return problems == 0 ? 0 : 1;
}
