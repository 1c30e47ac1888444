-- The source list, src/sources.mk, written once (tools/sources.lua reads it):
-- the Makefile builds every target from it, and the copies that cannot read
-- it (the rockspecs, the README's vendoring line, doc/design.md) agree with
-- it, as make release-check checks.  The checker itself runs on copies of the
-- tree in a temporary directory, with a file added or removed, and must name
-- what is wrong.  (spec/vendor_spec.lua builds the README's line.)

local helpers = require("helpers")
local sources = dofile("tools/sources.lua")

local quote, run = helpers.quote, helpers.run

local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local slurp = helpers.slurp

-- The interpreter running this spec (busted --lua=...): arg[-1] when set.
local function lua_binary()
  local i, bin = -1, nil
  while arg and arg[i] do bin, i = arg[i], i - 1 end
  return bin or "lua5.4"
end

local function temp_dir()
  local dir = os.tmpname()
  os.remove(dir)
  assert(run("mkdir -p " .. quote(dir)))
  return dir
end

describe("the source list (src/sources.mk)", function()
  local list = assert(sources.read())

  it("lists the core, the binding's entry point and parts, the headers and the link flags", function()
    assert.is_true(#list.core > 0 and #list.parts > 0 and #list.headers > 0)
    assert.are.equal("src/lastar.c", list.binding)
    assert.are.same({ "-lm", "-pthread" }, list.libs)
    assert.are.equal(#list.core + 1 + #list.parts + #list.headers, #list.all)
    assert.are.equal(list.binding, list.module[#list.module])
    assert.are.same({ "m", "pthread" }, sources.rockspec_libraries(list.libs))
  end)

  it("keeps every listed file at 900 lines or fewer (a longer one is split by concern)", function()
    local long = {}
    for _, path in ipairs(list.all) do
      local n = 0
      for _ in io.lines(path) do n = n + 1 end
      if n > 900 then long[#long + 1] = path .. " has " .. n .. " lines" end
    end
    assert.are.same({}, long)
  end)

  it("agrees with src/ and with every copy (make release-check)", function()
    local problems = sources.check()
    assert(#problems == 0, "the source list and its copies disagree:\n" .. table.concat(problems, "\n"))
  end)

  -- make's own database (make -p): every rule that depends on one listed
  -- file depends on all of them and on the list, so touching any source
  -- rebuilds it
  it("is what every Makefile rule that builds from the sources depends on", function()
    local ok, db = run("make -pq -R -r --no-print-directory 2>/dev/null; true")
    assert(ok, db)
    local wanted = { "build/astar/core.so", "build/luajit/astar/core.so", "build/core_test", "build/alloc_test",
      "dist/astar.c", "build/asan/astar/core.so", "build/asan/core_test", "build/asan/alloc_test",
      "build/tsan/thread_test",
      "build/fuzz/fuzz_core", "build/fuzz/fuzz_parse", "build/bench/core_bench" }
    -- the core's objects (build/obj/, shared by the module and the C tests;
    -- build/asan/obj/, the same for make check's instrumented builds)
    local objects, san_objects, binding_object = {}, {}, { list.binding }
    for i, f in ipairs(list.core) do
      objects[i] = f:gsub("^src/(.*)%.c$", "build/obj/%1.o")
      san_objects[i] = f:gsub("^src/(.*)%.c$", "build/asan/obj/%1.o")
    end
    for _, f in ipairs(list.parts) do binding_object[#binding_object + 1] = f end
    for _, f in ipairs(list.headers) do binding_object[#binding_object + 1] = f end
    local rules, seen = {}, {}
    for target, prereqs in db:gmatch("\n([%w_./%%-]+):([^\n]*)") do
      local set = {}
      for w in prereqs:gmatch("%S+") do set[w] = true end
      local uses = false
      for _, f in ipairs(list.all) do uses = uses or set[f] or false end
      for _, f in ipairs(objects) do uses = uses or set[f] or false end
      for _, f in ipairs(san_objects) do uses = uses or set[f] or false end
      if uses or set["src/%.c"] then rules[target] = set end
    end
    local missing = {}
    for target, set in pairs(rules) do
      seen[target] = true
      -- a core object (the pattern, or one make has instantiated) depends on
      -- its own source and every header;
      -- the binding's object on the binding, its parts and every header; a
      -- link of the core's objects on all of them (and a module's, on a
      -- binding object); anything else on every listed file
      local need, own = list.all, target:match("^build/.*/([%w_]+)%.o$")
      if set["src/%.c"] or (own and own ~= "lastar" and set["src/" .. own .. ".c"]) then
        need = list.headers
      elseif set[list.binding] and not set[list.core[1]] then
        need = binding_object
      elseif set[objects[1]] or set[san_objects[1]] then
        local dir = set[objects[1]] and "build/obj/" or "build/asan/obj/"
        need = set[objects[1]] and objects or san_objects
        local links_binding = false
        for w in pairs(set) do
          links_binding = links_binding or (w:sub(1, #dir) == dir and w:match("^[^/]+/lastar%.o$", #dir + 1) ~= nil)
        end
        if target:match("core%.so$") or target:match("alloc_test$") then
          if not links_binding then missing[#missing + 1] = target .. " does not link a binding object" end
        end
      end
      for _, f in ipairs(need) do
        if not set[f] then missing[#missing + 1] = target .. " does not depend on " .. f end
      end
      if not set["src/sources.mk"] then missing[#missing + 1] = target .. " does not depend on src/sources.mk" end
    end
    for _, target in ipairs(wanted) do
      if not seen[target] then missing[#missing + 1] = "no rule builds " .. target .. " from the sources" end
    end
    assert(rules["build/bench/obj/%.o"], "no rule for the bench's core objects")
    assert(rules["build/obj/%.o"] and rules["build/obj/%/lastar.o"], "no rule for the shared objects")
    assert(rules["build/asan/obj/%.o"] and rules["build/asan/obj/%/lastar.o"], "no rule for the instrumented objects")
    table.sort(missing)
    assert(#missing == 0, table.concat(missing, "\n"))
  end)

  it("gives the Makefile's compile commands their files and link flags", function()
    -- the module and the C tests compile each listed file once (-c) and
    -- link the objects
    local libs = table.concat(list.libs, " ")
    local compiled, linked = {}, {}
    for _, f in ipairs(list.core) do
      compiled[#compiled + 1] = "-c " .. f .. " "
      linked[#linked + 1] = f:gsub("^src/(.*)%.c$", " build/obj/%1.o")
    end
    local module = { "-c " .. list.binding .. " ", libs }
    for _, w in ipairs(compiled) do module[#module + 1] = w end
    for _, w in ipairs(linked) do module[#module + 1] = w end
    local c_test = { libs }
    for _, w in ipairs(linked) do c_test[#c_test + 1] = w end
    for target, words in pairs({
      ["build/astar/core.so"] = module,
      ["build/core_test"] = c_test,
      ["build/alloc_test"] = module,
      ["dist/astar.c"] = { "tools/amalgamate.lua dist src/sources.mk" },
    }) do
      local ok, out = run("make -n -B --no-print-directory " .. target)
      assert(ok, out)
      for _, w in ipairs(words) do
        assert.is_truthy(out:find(w, 1, true), ("make %s: no %q in\n%s"):format(target, w, out))
      end
    end
  end)

  it("refuses anything but plain assignments, naming the line", function()
    local dir = temp_dir()
    local path = dir .. "/sources.mk"
    local good = "CORE_SRC = src/a.c \\\n  src/b.c   # two\nBINDING = src/l.c\nBINDING_PARTS =\n"
      .. "HEADERS = src/a.h\nLIBS = -lm\n"
    write(path, good)
    local parsed = assert(sources.read(path))
    assert.are.same({ "src/a.c", "src/b.c" }, parsed.core)
    assert.are.same({}, parsed.parts)
    assert.are.same({ "src/a.c", "src/b.c", "src/l.c", "src/a.h" }, parsed.all)
    for _, case in ipairs({
      { "CORE_SRC = $(wildcard src/*.c)\n", ":1: CORE_SRC: plain words only (no make functions or references)" },
      { "# list\n\nFOO = src/a.c\n", ":3: unknown variable FOO" },
      { "CORE_SRC += src/c.c\n", ':1: expected `NAME = word ...`, got "CORE_SRC += src/c.c"' },
      { good .. "CORE_SRC = src/c.c\n", ":7: CORE_SRC is set twice" },
    }) do
      write(path, case[1])
      assert.are.same({ nil, path .. case[2] }, { sources.read(path) })
    end
    write(path, "CORE_SRC = src/a.c\nBINDING = src/l.c src/m.c\nBINDING_PARTS =\nHEADERS =\nLIBS =\n")
    assert.are.same({ nil, path .. ": BINDING must name exactly one file, it names 2" }, { sources.read(path) })
    write(path, "CORE_SRC = src/a.c\nBINDING = src/l.c\nBINDING_PARTS = src/a.c\nHEADERS =\nLIBS =\n")
    assert.are.same({ nil, path .. ": src/a.c is listed twice (CORE_SRC and BINDING_PARTS)" }, { sources.read(path) })
    write(path, "CORE_SRC = src/a.c\nBINDING = src/l.c\nLIBS =\n")
    assert.are.same({ nil, path .. ": no BINDING_PARTS" }, { sources.read(path) })
    assert.are.same({ nil, dir .. "/none.mk: cannot be read" }, { sources.read(dir .. "/none.mk") })
    run("rm -rf " .. quote(dir))
  end)

  describe("on a copy of the tree", function()
    local dir, before

    -- a fresh copy of what the checker reads (the listed files of src/ and
    -- the list, the documents, the rockspecs) and what it says of the copy
    -- before a test changes it (nothing, when the tree agrees: the test above)
    local function copy()
      if dir then run("rm -rf " .. quote(dir)) end
      dir = temp_dir()
      local cmd = { "mkdir " .. quote(dir .. "/src"), "cp -R doc README.md *.rockspec " .. quote(dir),
        "cp " .. sources.LIST .. " " .. quote(dir .. "/src/") }
      for _, f in ipairs(list.all) do cmd[#cmd + 1] = "cp " .. quote(f) .. " " .. quote(dir .. "/src/") end
      local ok, out = run(table.concat(cmd, " && "))
      assert(ok, out)
      before = {}
      for _, m in ipairs(sources.check(dir)) do before[m] = true end
    end

    local function edit_list(from, to)
      local text = slurp(dir .. "/src/sources.mk")
      local s, e = text:find(from, 1, true)
      assert(s, from)
      write(dir .. "/src/sources.mk", text:sub(1, s - 1) .. to .. text:sub(e + 1))
    end

    -- what the checker says of the copy now that it did not say before
    local function problems()
      local new = {}
      for _, m in ipairs(sources.check(dir)) do
        if not before[m] then new[#new + 1] = m end
      end
      table.sort(new)
      return new
    end

    after_each(function()
      if dir then run("rm -rf " .. quote(dir)) end
      dir = nil
    end)

    it("names a file of src/ that the list lacks", function()
      copy()
      write(dir .. "/src/zz_spec.c", "/* zz_spec */\n")
      assert.are.same({ "src/zz_spec.c is in src/ but not in src/sources.mk: add it to CORE_SRC (a core file), "
        .. "BINDING_PARTS (a part src/lastar.c includes) or HEADERS" }, problems())
    end)

    it("names each copy that lacks a new core file", function()
      copy()
      write(dir .. "/src/zz_spec.c", "/* zz_spec */\n")
      edit_list("CORE_SRC = ", "CORE_SRC = src/zz_spec.c ")
      assert.are.same({
        "README.md: the vendoring line lacks src/zz_spec.c (CORE_SRC in src/sources.mk)",
        'astar-0.2.0-1.rockspec: build.modules["astar.core"].sources lacks src/zz_spec.c (CORE_SRC in src/sources.mk)',
        'astar-scm-1.rockspec: build.modules["astar.core"].sources lacks src/zz_spec.c (CORE_SRC in src/sources.mk)',
      }, problems())
    end)

    it("names a binding part that the binding does not include, or the design notes do not name", function()
      copy()
      write(dir .. "/src/lzz_spec.c", "/* lzz_spec */\n")
      edit_list("BINDING_PARTS = ", "BINDING_PARTS = src/lzz_spec.c ")
      assert.are.same({
        "doc/design.md does not name lzz_spec.c (the paragraph on src/lastar.c lists the binding's parts)",
        "src/sources.mk lists src/lzz_spec.c in BINDING_PARTS, but src/lastar.c does not include it",
      }, problems())
      -- make dist refuses it too: the amalgamation, run in the copy
      local _, root = run("pwd")
      local ok, out = run(("cd %s && %s %s out src/sources.mk"):format(quote(dir), lua_binary(),
        quote(root:gsub("%s+$", "") .. "/tools/amalgamate.lua")))
      assert.is_false(ok)
      assert.are.equal("amalgamate.lua: src/sources.mk lists src/lzz_spec.c, but no source includes it\n", out)
    end)

    it("names a listed file that does not exist, and a document that names a file not listed", function()
      copy()
      edit_list("HEADERS = ", "HEADERS = src/gone_spec.h ")
      assert.are.same({ "src/sources.mk: src/gone_spec.h (in HEADERS) does not exist" }, problems())
      copy()
      write(dir .. "/doc/extra.md", "See `src/gone_spec.h`.\n")
      assert.are.same({ "doc/extra.md names src/gone_spec.h, which src/sources.mk does not list (renamed or gone?)" },
        problems())
    end)

    it("names a listed header that no listed file includes", function()
      copy()
      write(dir .. "/src/zz_spec.h", "/* zz_spec */\n")
      edit_list("HEADERS = ", "HEADERS = src/zz_spec.h ")
      assert.are.same({ "src/sources.mk lists src/zz_spec.h in HEADERS, but no listed file includes it" }, problems())
    end)

    it("names a rockspec's extra file and wrong libraries", function()
      copy()
      local path = dir .. "/astar-scm-1.rockspec"
      local text = slurp(path)
      text = text:gsub('"src/lastar%.c" }', '"src/lastar.c", "' .. list.parts[1] .. '" }', 1)
      text = text:gsub('libraries = { "m", "pthread" }', 'libraries = { "m" }', 1)
      write(path, text)
      assert.are.same({
        'astar-scm-1.rockspec: build.modules["astar.core"].sources has ' .. list.parts[1]
          .. ", which is not in CORE_SRC or BINDING of src/sources.mk",
        'astar-scm-1.rockspec: build.platforms.unix.modules["astar.core"].libraries lacks "pthread" '
          .. "(LIBS of src/sources.mk: -lm -pthread)",
      }, problems())
    end)
  end)
end)
