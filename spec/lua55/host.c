/*
** lua55_host.c -- the three small C modules busted needs, for the Lua 5.5
** interpreter that `make LUA=lua5.5` builds (build/lua55).
**
** Debian packages Lua only up to 5.4.  busted, luassert, say, penlight and
** lua_cliargs are pure Lua and load under 5.5 from Debian's 5.4 directories
** (the interpreter's default path includes them, see the Makefile), but
** three of their dependencies are C modules compiled for 5.4, which 5.5
** cannot load: LuaFileSystem (`lfs`), lua-term (`term.core`) and luasystem
** (`system.core`).  This file is a minimal, independent implementation of
** the part of each that busted and penlight call, written for this test
** harness (not a copy of those libraries): CI builds it from the repository
** alone, with no network.
**
**   lfs          attributes, symlinkattributes, currentdir, chdir, dir,
**                mkdir, rmdir (penlight's pl.path and pl.dir: finding
**                spec files, reading and writing temporary files)
**   term.core    isatty (busted's choice of colours)
**   system.core  gettime, monotime, sleep (busted's timings)
**
** One shared object holds the three openers; the Makefile installs it as
** build/lua55/lib/lfs.so, term/core.so and system/core.so, so that
** require finds each under its own name.  Errors follow LuaFileSystem's
** convention: nil, a message, the errno.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int luaopen_lfs(lua_State *L);
EXPORT int luaopen_term_core(lua_State *L);
EXPORT int luaopen_system_core(lua_State *L);

/* nil, "path: message", errno: the failure triple */
static int fail_errno(lua_State *L, const char *what) {
  int e = errno;
  lua_pushnil(L);
  lua_pushfstring(L, "%s: %s", what, strerror(e));
  lua_pushinteger(L, e);
  return 3;
}

static const char *mode_name(mode_t m) {
  if (S_ISREG(m)) return "file";
  if (S_ISDIR(m)) return "directory";
  if (S_ISLNK(m)) return "link";
  if (S_ISSOCK(m)) return "socket";
  if (S_ISFIFO(m)) return "named pipe";
  if (S_ISCHR(m)) return "char device";
  if (S_ISBLK(m)) return "block device";
  return "other";
}

/* Pushes one attribute by name; returns 0 for an unknown name. */
static int push_attribute(lua_State *L, const struct stat *st, const char *name) {
  if (strcmp(name, "mode") == 0) lua_pushstring(L, mode_name(st->st_mode));
  else if (strcmp(name, "size") == 0) lua_pushinteger(L, (lua_Integer)st->st_size);
  else if (strcmp(name, "access") == 0) lua_pushinteger(L, (lua_Integer)st->st_atime);
  else if (strcmp(name, "modification") == 0) lua_pushinteger(L, (lua_Integer)st->st_mtime);
  else if (strcmp(name, "change") == 0) lua_pushinteger(L, (lua_Integer)st->st_ctime);
  else if (strcmp(name, "dev") == 0) lua_pushinteger(L, (lua_Integer)st->st_dev);
  else if (strcmp(name, "ino") == 0) lua_pushinteger(L, (lua_Integer)st->st_ino);
  else if (strcmp(name, "nlink") == 0) lua_pushinteger(L, (lua_Integer)st->st_nlink);
  else if (strcmp(name, "uid") == 0) lua_pushinteger(L, (lua_Integer)st->st_uid);
  else if (strcmp(name, "gid") == 0) lua_pushinteger(L, (lua_Integer)st->st_gid);
  else return 0;
  return 1;
}

static const char *const attribute_names[] = {"mode", "size", "access", "modification", "change",
                                              "dev",  "ino",  "nlink",  "uid",          "gid"};

/* attributes(path [, name | table]): a table of every attribute, one
** attribute's value, or the given table filled */
static int attributes_with(lua_State *L, int (*statf)(const char *, struct stat *)) {
  const char *path = luaL_checkstring(L, 1);
  struct stat st;
  size_t i;
  if (statf(path, &st) != 0) return fail_errno(L, path);
  if (lua_type(L, 2) == LUA_TSTRING) {
    const char *name = lua_tostring(L, 2);
    if (!push_attribute(L, &st, name)) return luaL_argerror(L, 2, "invalid attribute name");
    return 1;
  }
  if (lua_istable(L, 2)) lua_settop(L, 2);
  else lua_newtable(L);
  for (i = 0; i < sizeof attribute_names / sizeof attribute_names[0]; i++) {
    push_attribute(L, &st, attribute_names[i]);
    lua_setfield(L, -2, attribute_names[i]);
  }
  return 1;
}

static int l_attributes(lua_State *L) { return attributes_with(L, stat); }
static int l_symlinkattributes(lua_State *L) { return attributes_with(L, lstat); }

static int l_currentdir(lua_State *L) {
  char buf[4096];
  if (getcwd(buf, sizeof buf) == NULL) return fail_errno(L, "getcwd");
  lua_pushstring(L, buf);
  return 1;
}

static int l_chdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (chdir(path) != 0) return fail_errno(L, path);
  lua_pushboolean(L, 1);
  return 1;
}

static int l_mkdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (mkdir(path, 0777) != 0) return fail_errno(L, path);
  lua_pushboolean(L, 1);
  return 1;
}

static int l_rmdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (rmdir(path) != 0) return fail_errno(L, path);
  lua_pushboolean(L, 1);
  return 1;
}

/* The directory iterator: a userdata holding the DIR *, closed at the end
** of the listing, by :close() or by the collector, whichever comes first. */
#define DIR_META "lua55_host.dir"
typedef struct {
  DIR *d;
} dir_box;

static int dir_close(lua_State *L) {
  dir_box *b = (dir_box *)luaL_checkudata(L, 1, DIR_META);
  if (b->d != NULL) closedir(b->d);
  b->d = NULL;
  return 0;
}

static int dir_next(lua_State *L) {
  dir_box *b = (dir_box *)luaL_checkudata(L, 1, DIR_META);
  struct dirent *e;
  luaL_argcheck(L, b->d != NULL, 1, "closed directory");
  e = readdir(b->d);
  if (e == NULL) {
    closedir(b->d);
    b->d = NULL;
    return 0;
  }
  lua_pushstring(L, e->d_name);
  return 1;
}

/* dir(path) -> iterator, directory object (for name in lfs.dir(path)) */
static int l_dir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  dir_box *b = (dir_box *)lua_newuserdatauv(L, sizeof *b, 0);
  b->d = NULL; /* the box exists (and owns nothing) before the directory opens */
  luaL_setmetatable(L, DIR_META);
  b->d = opendir(path);
  if (b->d == NULL) return luaL_error(L, "cannot open %s: %s", path, strerror(errno));
  lua_pushcfunction(L, dir_next);
  lua_insert(L, -2);
  return 2;
}

int luaopen_lfs(lua_State *L) {
  static const luaL_Reg dir_methods[] = {{"next", dir_next}, {"close", dir_close}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"attributes", l_attributes},
                                   {"symlinkattributes", l_symlinkattributes},
                                   {"currentdir", l_currentdir},
                                   {"chdir", l_chdir},
                                   {"dir", l_dir},
                                   {"mkdir", l_mkdir},
                                   {"rmdir", l_rmdir},
                                   {NULL, NULL}};
  if (luaL_newmetatable(L, DIR_META)) {
    luaL_newlib(L, dir_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, dir_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, dir_close);
    lua_setfield(L, -2, "__close");
  }
  lua_pop(L, 1);
  luaL_newlib(L, funcs);
  return 1;
}

/* term.core.isatty(file) */
static int l_isatty(lua_State *L) {
  luaL_Stream *s = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
  lua_pushboolean(L, s->f != NULL && isatty(fileno(s->f)));
  return 1;
}

int luaopen_term_core(lua_State *L) {
  static const luaL_Reg funcs[] = {{"isatty", l_isatty}, {NULL, NULL}};
  luaL_newlib(L, funcs);
  return 1;
}

static double clock_seconds(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int l_gettime(lua_State *L) {
  lua_pushnumber(L, clock_seconds(CLOCK_REALTIME));
  return 1;
}

static int l_monotime(lua_State *L) {
  lua_pushnumber(L, clock_seconds(CLOCK_MONOTONIC));
  return 1;
}

/* sleep(seconds): nanosleep, resumed after signals */
static int l_sleep(lua_State *L) {
  double s = luaL_checknumber(L, 1);
  struct timespec ts;
  if (!(s > 0)) return 0;
  ts.tv_sec = (time_t)s;
  ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
  return 0;
}

int luaopen_system_core(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"gettime", l_gettime}, {"monotime", l_monotime}, {"sleep", l_sleep}, {NULL, NULL}};
  luaL_newlib(L, funcs);
  return 1;
}
