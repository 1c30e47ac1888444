/*
** lobject.c -- what every object of the binding shares: the module state,
** object lifetimes, and protected calls.  Included by lastar.c.
**
** The module state (one per Lua state, in the registry) owns the allocator
** the core uses.  It is Lua's own allocator, wrapped to count bytes: the
** collector paces itself on what Lua allocated, so C memory it never hears
** of lets dropped grids and queries pile up.  Every call that may have
** allocated ends with account(), which tells the collector (see there).
**
** Lifetimes.  A finalizer (__gc of any object) can run at any allocation
** inside a C function, and so can an options table's __index metamethod or
** a search callback: arbitrary Lua code in the middle of a call.  So every
** call that uses an object's C memory across such a point *holds* it, in a
** frame (lcall) that a protected call releases whatever happens:
**   - close() (or cancel()) on a held object marks it closed at once --
**     every other use raises "attempt to use a closed grid" -- but frees
**     its memory only when the last call holding it ends;
**   - a held object may also be *locked* (a search reads it): mutators
**     refuse with "grid is being searched";
**   - __gc on a held object (only at lua_close, e.g. os.exit(0, true) from
**     a callback, or through the debug library) defers to the last release,
**     or to the module state's own finalizer, which runs when the Lua state
**     closes and frees whatever is left: nothing leaks.
**
** Protected calls.  A function registered as protected runs its body under
** lua_pcall with a fresh frame, which the body finds as the module state's
** innermost call (call_frame; calls nest on the one C stack, so the frames
** form a chain: a body cannot yield); the frame is released after the
** pcall, whether the body returned or raised, and an error is then
** rethrown unchanged.
*/

#define STATE_MT "astar.State"
#define STATE_KEY "astar.state"

/* Upvalues of every function the module registers (see register_funcs):
** its name and whether it is a method (argument errors), the module state,
** its class (methods of topologies), the interned keys (KEY) and, for
** protected functions, the body (the entry) or true (the body itself:
** errors look one level up). */
enum { UV_NAME = 1,
       UV_METHOD,
       UV_STATE,
       UV_CLASS,
       UV_KEYS,
       UV_BODY };

/* The keys of the tables a search returns and reads, interned once per Lua
** state in a list every registered function holds as its UV_KEYS upvalue.
** KEY(L, k) pushes one (an array read): lua_setfield and lua_getfield with
** a C string would look it up in Lua's string cache (a strcmp) on every
** field of every call.  From K_PATH_MTS on, luaopen sets the entries: the
** registry tables the calls read, and the built-in heuristics' names. */
/* The topology classes (graph, grid, hex): lstate's class_mt. */
#define TOPO_CLASSES 3

enum { K_COST = 1,
       K_NODES,
       K_VERSION,
       K_LENGTH,
       K_WIDTH,
       K_EXPANDED,
       K_REOPENED,
       K_GENERATED,
       K_NODE,
       K_PARENT,
       K_G,
       K_F,
       K_X,
       K_Y,
       K_SEARCH,
       K_SEARCH2,
       K_CLASS,
       K_PATH_MTS,
       K_LIST,       /* the chunk `return {...}` (lresult.c's push_id_list) */
       K_OPTIONS,    /* the search options' names: [i] = name, [name] = i (lopts.c) */
       K_HEURISTICS, /* the registered heuristics (lheur.c) */
       K_CLASS_MTS,  /* K_CLASS_MTS + i: topology class i's metatable (lstate) */
       /* K_HNAMES + h: the built-in heuristic h's name */
       K_HNAMES = K_CLASS_MTS + TOPO_CLASSES };

#define CLASS_FIELD "__astar_class" /* in each topology metatable (ltopo.c) */

static const char *const key_names[] = {"cost", "nodes", "version", "length",
                                        "width", "expanded", "reopened", "generated",
                                        "node", "parent", "g", "f",
                                        "x", "y", "search", "search2", CLASS_FIELD};

/* one name per key before K_PATH_MTS */
typedef char key_names_check[sizeof key_names / sizeof *key_names == K_PATH_MTS - 1 ? 1 : -1];

#define KEYS_KEY "astar.keys"
#define KEY(L, k) lua_rawgeti((L), lua_upvalueindex(UV_KEYS), (k))

typedef struct lobj lobj;

typedef struct lcall lcall;

typedef struct lstate {
  lcall *call;      /* the innermost protected call running (run_protected) */
  lua_Alloc allocf; /* Lua's allocator, as it was at luaopen */
  void *allocud;
  size_t bytes;   /* C memory alive, through state_alloc */
  size_t debt;    /* allocated since the collector was told */
  size_t base;    /* bytes after the last full collection */
  int closing;    /* the Lua state is closing */
  int overridden; /* a built-in heuristic's name was registered (lheur.c) */
  lobj *deferred; /* collected while held (see obj_gc) */
  /* each topology class's metatable (as lua_topointer sees it) and class,
  ** so a method checks its object by one pointer compare (ltopo.c's
  ** topo_class_of); the keys (K_CLASS_MTS) anchor the tables, so no other
  ** table can take one of these addresses while the module is loaded */
  const void *class_mt[TOPO_CLASSES];
  const struct ltopo_class *class_of[TOPO_CLASSES];
} lstate;

/* The header of every userdata that owns C memory or must not change while
** a call reads it (topologies, queries, searches, fields, heuristics). */
struct lobj {
  lstate *M;
  void (*release)(lobj *o); /* frees the C memory (called once) */
  int holds;                /* frames holding the object */
  int locks;                /* ... of which searches: no mutation */
  unsigned char closed;     /* closed for everyone but its holders */
  unsigned char released;   /* its C memory is gone */
  unsigned char collected;  /* __gc ran while held: on M->deferred */
  lobj *next;               /* M->deferred */
};

/* A protected call's frame: the objects it holds. */
#define LCALL_MAX 8

struct lcall {
  lstate *M;
  lcall *outer; /* the protected call running when this one began */
  int n;
  lobj *held[LCALL_MAX];
  unsigned char locked[LCALL_MAX];
};

/* ------------------------------------------------------------------------ */
/* memory the collector sees                                                  */
/* ------------------------------------------------------------------------ */

/* The core's allocator (lua_Alloc's contract): Lua's own, counting. */
static void *state_alloc(void *ud, void *p, size_t osize, size_t nsize) {
  lstate *M = (lstate *)ud;
  void *r;
  if (p == NULL) osize = 0;
  r = M->allocf(M->allocud, p, osize, nsize);
  if (r == NULL && nsize > 0) return NULL; /* the old block stays */
  M->bytes = M->bytes - osize + nsize;
  if (nsize > osize) M->debt += nsize - osize;
  return r;
}

/* Below this many new bytes the collector is not bothered (a step costs
** more than the pacing it buys). */
#define ACCOUNT_MIN (64 * 1024)
/* C memory may grow this much beyond twice what the last full collection
** left before the next one. */
#define FULL_MIN (8 * 1024 * 1024)

/*
** Tells the collector about the C memory allocated since the last time.
**   - As a debt of that many kilobytes (LUA_GCSTEP): an incremental
**     collector then works as much as if Lua had allocated them, so dropped
**     objects holding C memory are collected at the pace their size calls
**     for.
**   - A generational collector (the lua5.4 interpreter's default) answers a
**     step with a minor collection, which never frees old objects, and
**     decides on major ones from Lua's own heap only.  So, as its own rule
**     does for the heap, a full collection runs when the C memory has
**     doubled since the last one (plus FULL_MIN): amortised, a constant
**     share of the work per byte allocated, in either mode.
** Finalizers may run here: call it where the caller's frame still holds
** what it uses (see run_protected) or uses nothing any more.  A stopped
** collector is left alone (the debt waits); 5.4 refuses steps inside a
** finalizer (-1), and the debt waits too.
*/
static void account(lua_State *L, lstate *M) {
  size_t kb = M->debt / 1024;
  if (M->debt < ACCOUNT_MIN || !compat_gc_running(L)) return;
  if (kb > INT_MAX) kb = INT_MAX;
  if (compat_gcstep(L, kb) == -1) return;
  M->debt = 0;
  if (M->bytes > 2 * M->base + FULL_MIN) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    M->base = M->bytes;
  }
}

/* ------------------------------------------------------------------------ */
/* lifetimes                                                                  */
/* ------------------------------------------------------------------------ */

static void obj_init(lobj *o, lstate *M, void (*release)(lobj *)) {
  memset(o, 0, sizeof *o);
  o->M = M;
  o->release = release;
}

/* Frees the object's C memory, once; takes it off the deferred list. */
static void obj_release(lobj *o) {
  if (o->released) return;
  o->released = 1;
  if (o->collected) {
    lobj **p = &o->M->deferred;
    while (*p != NULL && *p != o) p = &(*p)->next;
    if (*p == o) *p = o->next;
    o->collected = 0;
  }
  o->release(o);
}

/* close() and cancel(): at once for everyone, the memory when unheld. */
static void obj_close(lobj *o) {
  o->closed = 1;
  if (o->holds == 0) obj_release(o);
}

/* __gc.  A real finalizer never meets a held object (held objects are on
** a running C function's stack) except when the Lua state closes; then, or
** through the debug library, the release waits for the last holder or for
** the state's own finalizer, whichever comes first. */
static void obj_gc(lobj *o) {
  o->closed = 1;
  if (o->holds == 0 || o->M->closing) {
    obj_release(o);
  } else if (!o->collected) {
    o->collected = 1;
    o->next = o->M->deferred;
    o->M->deferred = o;
  }
}

/* The module state's finalizer: the Lua state is closing.  Whatever is
** still held belongs to C frames that will never resume. */
static int l_state_gc(lua_State *L) {
  lstate *M = (lstate *)lua_touserdata(L, 1);
  if (M == NULL) return 0;
  M->closing = 1;
  while (M->deferred != NULL) obj_release(M->deferred);
  return 0;
}

/* The module state of this Lua state (created on first use). */
static lstate *state_open(lua_State *L) {
  lstate *M;
  lua_getfield(L, LUA_REGISTRYINDEX, STATE_KEY);
  M = (lstate *)compat_testudata(L, -1, STATE_MT);
  lua_pop(L, 1);
  if (M != NULL) return M;
  M = (lstate *)compat_newud(L, sizeof *M);
  memset(M, 0, sizeof *M);
  M->allocf = lua_getallocf(L, &M->allocud);
  luaL_newmetatable(L, STATE_MT);
  lua_pushcfunction(L, l_state_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, STATE_KEY);
  return M;
}

/* Sets the user value of the userdata on top to { key = <value at vidx> }:
** what it keeps alive (a table: 5.1's environments must be tables). */
static void set_owner(lua_State *L, int vidx, const char *key) {
  lua_createtable(L, 0, 1);
  lua_pushvalue(L, vidx);
  lua_setfield(L, -2, key);
  compat_setuv(L, -2);
}

/* The module state, from the running function's upvalues. */
static lstate *get_state(lua_State *L) {
  return (lstate *)lua_touserdata(L, lua_upvalueindex(UV_STATE));
}

/* ------------------------------------------------------------------------ */
/* protected calls                                                            */
/* ------------------------------------------------------------------------ */

/* Holds o for the rest of the call; lock: the call searches it. */
static void hold(lua_State *L, lcall *C, lobj *o, int lock) {
  if (C->n == LCALL_MAX) luaL_error(L, "too many objects in one call");
  o->holds++;
  if (lock) o->locks++;
  C->held[C->n] = o;
  C->locked[C->n++] = (unsigned char)lock;
}

/* Ends the call: unholds in reverse order; a close that waited happens. */
static void call_release(lcall *C) {
  while (C->n > 0) {
    lobj *o = C->held[--C->n];
    o->holds--;
    if (C->locked[C->n]) o->locks--;
    if (o->holds == 0 && o->closed) obj_release(o);
  }
}

/* account() as a protected function: the state is its argument. */
static int l_account(lua_State *L) {
  account(L, (lstate *)lua_touserdata(L, 1));
  return 0;
}

/*
** Runs the function's body (its UV_BODY upvalue) on its n arguments under
** lua_pcall, with a frame in front of the arguments; returns the results or
** rethrows the error, after releasing what the frame held.  No collector
** step can run between the entry and the body's first hold: nothing here
** allocates through the API (lua_pushvalue, lua_insert, lua_checkstack and
** light userdata do not), and the stack is grown beforehand so that the
** call itself need not grow it (a growth may run a step).  The collector is
** told about new memory while the frame still holds everything (a
** finalizer it runs sees the objects in use), under its own pcall: on Lua
** 5.1 to 5.3 a finalizer's error propagates from any step.
*/
static int run_protected(lua_State *L) {
  lcall C;
  int n = lua_gettop(L), status;
  C.M = get_state(L);
  C.n = 0;
  luaL_checkstack(L, LUA_MINSTACK + 4, "too many arguments");
  lua_pushvalue(L, lua_upvalueindex(UV_BODY));
  lua_insert(L, 1); /* body, args... */
  C.outer = C.M->call;
  C.M->call = &C;
  status = lua_pcall(L, n, LUA_MULTRET, 0);
  C.M->call = C.outer; /* the body's nested calls have ended, raised or not */
  if (status == LUA_OK && C.M->debt >= ACCOUNT_MIN) {
    lua_pushcfunction(L, l_account);
    lua_pushlightuserdata(L, C.M);
    status = lua_pcall(L, 1, 0, 0);
  }
  call_release(&C);
  if (status != LUA_OK) return lua_error(L);
  return lua_gettop(L);
}

/* The entry of a protected function; a function that protects itself only
** when it must (a mutator that interns a tag name) calls it to run the body
** registered beside it. */
static int l_protected(lua_State *L) { return run_protected(L); }

/* A body's first step: its frame, the innermost protected call's (NULL
** when none runs: a body reached through the debug library and called
** directly is refused). */
static lcall *call_frame(lua_State *L) {
  lcall *C = get_state(L)->call;
  if (C == NULL) luaL_error(L, "a protected function's body called directly");
  return C;
}

/* ------------------------------------------------------------------------ */
/* registration                                                               */
/* ------------------------------------------------------------------------ */

/* One function: its name, its entry, and the body it runs protected: for
** a protected function the entry is l_protected and f is the body; a
** function that protects itself only when it must names its body here. */
typedef struct lfunc {
  const char *name;
  lua_CFunction f;
  int protected;
  lua_CFunction body;
} lfunc;

/* Sets the functions of l into the table on top, each a closure over its
** upvalues (see the UV_ enum); cls: the class of a topology's methods. */
/* Pushes the interned keys (see KEY), made on first use in this Lua state. */
static void push_keys(lua_State *L) {
  int i;
  lua_getfield(L, LUA_REGISTRYINDEX, KEYS_KEY);
  if (lua_istable(L, -1)) return;
  lua_pop(L, 1);
  lua_createtable(L, K_HNAMES + 8, 0); /* a size hint: 8 built-in names */
  for (i = 0; i < (int)(sizeof key_names / sizeof *key_names); i++) {
    lua_pushstring(L, key_names[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, KEYS_KEY);
}

static void register_funcs(lua_State *L, lstate *M, const lfunc *l, int method,
                           const void *cls) {
  for (; l->name != NULL; l++) {
    lua_pushstring(L, l->name);
    lua_pushboolean(L, method);
    lua_pushlightuserdata(L, M);
    if (cls) lua_pushlightuserdata(L, (void *)cls);
    else lua_pushnil(L);
    push_keys(L);
    if (l->protected || l->body) {
      int i;
      for (i = UV_NAME; i < UV_BODY; i++) lua_pushvalue(L, UV_NAME - UV_BODY);
      lua_pushboolean(L, 1); /* marks a body (arg_error) */
      lua_pushcclosure(L, l->protected ? l->f : l->body, UV_BODY);
      lua_pushcclosure(L, l->protected ? l_protected : l->f, UV_BODY);
    } else {
      lua_pushcclosure(L, l->f, UV_KEYS);
    }
    lua_setfield(L, -2, l->name);
  }
}

/* A metatable named `name` (also its __name: 5.1 and 5.2 do not set one)
** with metamethods meta and, when given, an __index of the methods of
** every list in `lists` (NULL-terminated). */
static void new_class(lua_State *L, lstate *M, const char *name, const lfunc *meta,
                      const lfunc *const *lists, const void *cls) {
  luaL_newmetatable(L, name);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name");
  register_funcs(L, M, meta, 1, cls);
  if (lists) {
    lua_newtable(L);
    for (; *lists != NULL; lists++) register_funcs(L, M, *lists, 1, cls);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
}
