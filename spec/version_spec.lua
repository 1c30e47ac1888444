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
end)
