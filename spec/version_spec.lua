-- One version, everywhere it is written: the Lua module, the C core it
-- loads, the header, the rockspecs and the CHANGELOG (make release-check
-- checks the files too; this checks the loaded code).
local astar = require("astar")
local core = require("astar.core")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

describe("version", function()
  it("is 'astar X.Y.Z' in _VERSION and X.Y.Z in version, as LuaSocket and LPeg spell them", function()
    assert.is_truthy(astar._VERSION:match("^astar %d+%.%d+%.%d+$"))
    assert.are.equal("astar " .. astar.version, astar._VERSION)
  end)

  it("is the C core's astar_version()", function()
    assert.are.equal(astar.version, core.version)
    assert.are.equal(astar._VERSION, core._VERSION)
  end)

  it("is the header's, macros included", function()
    local h = read("src/astar.h")
    assert.are.equal(astar.version, h:match('#define ASTAR_VERSION "([^"]+)"'))
    local triple = table.concat({
      h:match("#define ASTAR_VERSION_MAJOR (%d+)"),
      h:match("#define ASTAR_VERSION_MINOR (%d+)"),
      h:match("#define ASTAR_VERSION_PATCH (%d+)"),
    }, ".")
    assert.are.equal(astar.version, triple)
  end)

  it("has a release rockspec and is the CHANGELOG's top entry", function()
    local spec = read("astar-" .. astar.version .. "-1.rockspec")
    assert.are.equal(astar.version .. "-1", spec:match('\nversion = "([^"]+)"'))
    assert.are.equal("v" .. astar.version, spec:match('tag = "([^"]+)"'))
    assert.are.equal(astar.version, read("CHANGELOG.md"):match("\n## %[([^%]]+)%]"))
  end)

  it("refuses a C module of another version", function()
    local saved_core, saved_astar = package.loaded["astar.core"], package.loaded.astar
    local saved_backend = package.loaded["astar.backend"] -- the choice is made again
    package.loaded["astar.core"] = setmetatable({ version = "9.9.9" }, { __index = saved_core })
    package.loaded.astar, package.loaded["astar.backend"] = nil, nil
    local ok, err = pcall(require, "astar")
    package.loaded["astar.core"], package.loaded.astar = saved_core, saved_astar
    package.loaded["astar.backend"] = saved_backend
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("the Lua module is " .. astar.version
      .. " but the C module astar.core is 9.9.9", 1, true))
  end)
  -- A C module is built for one Lua; another Lua that loads it must get an
  -- error saying so (luaL_checkversion's "version mismatch", or the loader's
  -- missing symbol), never a crash or an error from inside the module: 5.5
  -- loading a 5.4 build crashed, 5.4 loading a 5.5 build raised "attempt to
  -- index a nil value".  Runs every other interpreter found on the machine
  -- (Debian's lua5.1-5.4, luajit, this tree's Lua 5.5) against this build.
  it("a build for another Lua is refused by name, never a crash", function()
    local so
    for dir in package.cpath:gmatch("[^;]+") do
      local path = dir:gsub("%?", "astar/core")
      local f = io.open(path, "rb")
      if f then
        f:close()
        so = path
        break
      end
    end
    assert.is_truthy(so, "no astar/core on package.cpath")
    local cpath = so:gsub("astar/core(%.%w+)$", "?%1")
    local others, tried = {}, 0
    local function add(cmd, version)
      if version ~= _VERSION then -- LuaJIT and 5.1 share one ABI: not each other's other
        others[#others + 1] = cmd
      end
    end
    local f = io.open("build/lua55/bin/lua5.5", "rb")
    if f then
      f:close()
      add("build/lua55/bin/lua5.5", "Lua 5.5")
    end
    for _, v in ipairs({ "5.1", "5.2", "5.3", "5.4" }) do add("lua" .. v, "Lua " .. v) end
    add("luajit", "Lua 5.1")
    for _, cmd in ipairs(others) do
      local p = io.popen(("command -v %s >/dev/null 2>&1 && %s -e \"package.cpath = '%s'; "
        .. "local ok, err = pcall(require, 'astar.core'); io.write(tostring(ok), ' ', tostring(err))\" "
        .. "2>&1; echo ' status='$?"):format(cmd, cmd, cpath))
      local out = p:read("*a")
      p:close()
      if not out:match("^ status=127") and out ~= " status=1\n" then
        tried = tried + 1
        assert.is_truthy(out:match("^false "), cmd .. ": " .. out)
        assert.is_truthy(out:match("version mismatch") or out:match("undefined symbol")
          or out:match("incompatible"), cmd .. ": " .. out)
        assert.is_truthy(out:match(" status=0\n$"), cmd .. ": " .. out)
      end
    end
    assert.is_true(tried >= 1, "no other Lua interpreter on this machine")
  end)
end)
