-- Every Lua, every engine (issue 20): what the module looks like from the
-- outside on whichever interpreter runs this spec (make test LUA=...: 5.1,
-- 5.2, 5.3, 5.4, 5.5, LuaJIT): the module's exported symbols, every Lua
-- file of the repository compiling, option errors carrying the caller's
-- position, names and __close on every object, astar.svg loaded on first
-- use, and the rockspec's bounds and test section.
local astar = require("astar")
local describe_type = require("astar.describe").type
local helpers = require("helpers")

local run, quote, lua_binary = helpers.run, helpers.quote, helpers.lua_binary

describe("the C module's symbols", function()
  it("exports luaopen_astar_core alone (the core's functions are hidden)", function()
    if not run("command -v nm") then
      pending("skipped: no nm (Debian: binutils)")
      return
    end
    local path -- package.searchpath("astar.core", package.cpath), which 5.1 lacks
    for template in package.cpath:gmatch("[^;]+") do
      local candidate = template:gsub("%?", "astar/core")
      local f = io.open(candidate, "rb")
      if f then f:close(); path = path or candidate end
    end
    assert(path, "astar.core not on package.cpath")
    local ok, out = run("nm -D --defined-only " .. quote(path))
    assert(ok, out)
    local exported = {}
    for kind, name in out:gmatch("%x+ (%u) ([%w_@.]+)") do
      if kind ~= "A" then exported[#exported + 1] = name end
    end
    table.sort(exported)
    assert.same({ "luaopen_astar_core" }, exported)
  end)
end)

describe("the repository's Lua", function()
  it("compiles under this interpreter (5.5: no assignment to a for loop's variable)", function()
    -- (bench/ is Lua 5.4 tooling: integer division, <close>)
    local ok, out = run("find lua spec tools examples fuzz types -name '*.lua' | sort")
    assert(ok, out)
    local bad, count = {}, 0
    for path in out:gmatch("[^\n]+") do
      count = count + 1
      local f, err = loadfile(path)
      if not f then bad[#bad + 1] = err end
    end
    assert.is_true(count > 50)
    assert(#bad == 0, table.concat(bad, "\n"))
  end)
end)

describe("errors carry the caller's position", function()
  local function position_of(f)
    local ok, err = pcall(f)
    assert.is_false(ok)
    return err
  end

  it("for option names and option values, as for other arguments", function()
    local g = astar.grid(4, 4)
    local graph = astar.graph()
    graph:add_node(0, 0)
    local here = debug.getinfo(1, "S").short_src
    -- (no tail calls: LuaJIT and 5.1 drop the caller's frame in one)
    local cases = {
      { function() local r = g:find_path(1, 1, 4, 4, { huristic = "octile" }); return r end,
        "bad argument #5 to 'find_path' (unknown option \"huristic\")" },
      { function() local r = g:query(1, 1, 4, 4, { stop = "never" }); return r end, "bad argument #5 to 'query'" },
      { function() local r = graph:find_path(1, 1, { weight = -1 }); return r end, "bad argument #3 to 'find_path'" },
      { function() local r = g:distances({ { 1, 1 } }, { direction = "up" }); return r end,
        "bad argument #2 to 'distances'" },
      { function() local r = astar.grid(0, 1); return r end, "bad argument #1 to 'grid'" },
      { function() local r = g:set_blocked(9, 1, true); return r end, "bad argument #1 to 'set_blocked'" },
    }
    for _, c in ipairs(cases) do
      local line = debug.getinfo(c[1], "S").linedefined
      local err = position_of(c[1])
      local want = ("%s:%d: %s"):format(here, line, c[2])
      assert.equal(want, err:sub(1, #want))
    end
  end)
end)

describe("objects", function()
  it("every class has its __name, astar.GridPath too (5.1 and LuaJIT set none by themselves)", function()
    local g = astar.grid(4, 4)
    local p = g:find_path(1, 1, 4, 4)
    assert.equal("astar.GridPath", rawget(getmetatable(p), "__name"))
    assert.equal("table", describe_type(p)) -- a table, whatever its metatable says
    for _, obj in ipairs({ g, astar.graph(), astar.hex(2, 2), astar.field(g), g:query(1, 1, 2, 2),
                           astar.landmarks(g, 1) }) do
      assert.equal("string", type(rawget(getmetatable(obj), "__name")), tostring(obj))
    end
  end)

  it("fields and heuristic objects have close() and __close, as graphs and grids do", function()
    local g = astar.grid(6, 6)
    for _, make in ipairs({ function() return astar.field(g, 1) end, function() return astar.landmarks(g, 2) end,
                            function() return astar.cluster_heuristic(g, { count = 2 }) end,
                            function() return g:distances({ { 1, 1 } }) end }) do
      local obj = make()
      local mt = getmetatable(obj)
      assert.equal("function", type(rawget(mt, "__close")))
      assert.equal(rawget(mt, "__index").close ~= nil, true)
      rawget(mt, "__close")(obj, nil)
      obj:close() -- idempotent
      assert.is_truthy(tostring(obj):find("(closed)", 1, true))
    end
    local f = astar.field(g, 1)
    f:close()
    local err = helpers.error_of(f.get, f, 1, 1)
    assert.equal("attempt to use a closed field", err)
    assert.equal("attempt to use a closed field", helpers.error_of(g.find_path, g, 1, 1, 6, 6, { penalty = f }))
    local lm = astar.landmarks(g, 2)
    lm:close()
    assert.equal("attempt to use a closed heuristic", helpers.error_of(lm.value, lm, 1, 1, 6, 6))
    assert.equal("attempt to use a closed heuristic",
      helpers.error_of(g.find_path, g, 1, 1, 6, 6, { heuristic = lm }))
    assert.is_truthy(g:find_path(1, 1, 6, 6)) -- the grid is untouched
  end)

  it("a <close> variable closes a field and a heuristic object at the end of its scope (5.4+)", function()
    if not (_VERSION == "Lua 5.4" or _VERSION == "Lua 5.5") then
      pending("skipped: <close> is Lua 5.4+ syntax (" .. _VERSION .. ")")
      return
    end
    local chunk = assert(load([[
      local astar, g = ...
      local kept
      do
        local f <close> = astar.field(g, 1)
        local h <close> = astar.landmarks(g, 1)
        kept = { f, h }
      end
      return kept
    ]]))
    local kept = chunk(astar, astar.grid(4, 4))
    assert.equal("astar.Field (closed)", tostring(kept[1]))
    assert.equal("astar.Heuristic (closed)", tostring(kept[2]))
  end)
end)

describe("require('astar')", function()
  it("does not load lua/astar/svg.lua until astar.svg is called", function()
    local script = "local a = require('astar'); io.write(tostring(package.loaded['astar.svg'] ~= nil)); "
      .. "assert(a.svg(a.grid(2, 2)):find('<svg', 1, true)); io.write(' ', tostring(package.loaded['astar.svg'] ~= nil))"
    local ok, out = run(("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' %s -e %s"):format(
      quote(lua_binary()), quote(script)))
    assert(ok, out)
    assert.equal("false true", out)
  end)

  it("keeps astar.svg's errors at the caller's position", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() local svg = astar.svg(42); return svg end) -- no tail call: keep the frame
    assert.is_false(ok)
    assert.is_truthy(err:find(":" .. line .. ": bad argument #1 to 'svg'", 1, true), err)
  end)
end)

describe("the development rockspec", function()
  local sources = dofile("tools/sources.lua")
  local spec = assert(sources.load_lua("astar-scm-1.rockspec"))

  it("bounds the Lua versions to those tested (5.1 to 5.5)", function()
    assert.same({ "lua >= 5.1, < 5.6" }, spec.dependencies)
  end)

  it("has a test section (luarocks test: the everyday busted specs)", function()
    assert.equal("busted", spec.test.type)
    assert.same({ "--exclude-tags=system" }, spec.test.flags)
  end)

  it("installs every Lua module of lua/astar/", function()
    local ok, out = run("ls lua/astar/*.lua")
    assert(ok, out)
    for path in out:gmatch("[^\n]+") do
      local name = "astar." .. path:match("lua/astar/([%w_]+)%.lua$")
      assert.equal(path, spec.build.modules[name], name)
    end
  end)
end)

describe("the single-file build (tools/amalgamate.lua)", function()
  it("carries the licence in dist/astar.c and dist/astar.h, and the header is extern \"C\"", function()
    local dir = os.tmpname()
    os.remove(dir)
    local ok, out = run(("mkdir -p %s && %s tools/amalgamate.lua %s src/sources.mk"):format(
      quote(dir), quote(lua_binary()), quote(dir)))
    assert(ok, out)
    local c, h = helpers.slurp(dir .. "/astar.c"), helpers.slurp(dir .. "/astar.h")
    run("rm -rf " .. quote(dir))
    local first = helpers.slurp("LICENSE"):match("^[^\n]+\n\n([^\n]+)") -- the copyright line
    for _, text in ipairs({ c, h }) do
      assert.is_truthy(text:find("** MIT License", 1, true))
      assert.is_truthy(text:find("** " .. first, 1, true))
      assert.is_truthy(text:find("** THE SOFTWARE IS PROVIDED \"AS IS\"", 1, true))
      assert.is_truthy(text:find('#ifdef __cplusplus\nextern "C" {', 1, true))
    end
  end)
end)

describe("the README", function()
  it("says which Luas are tested: 5.1, 5.2, 5.3, 5.4, 5.5 and LuaJIT", function()
    local readme = helpers.slurp("README.md")
    assert.is_truthy(readme:find("**Tested Luas:** Lua 5.1, 5.2, 5.3, 5.4, 5.5 and LuaJIT", 1, true))
  end)
end)
