-- The README's vendoring line, run as written: in a temporary directory that
-- holds only the files src/sources.mk lists and the Lua part, the ```sh
-- vendor block of README.md builds astar/core.so, which lua5.4 loads (every
-- symbol resolved at load) and finds a path with.  (It once lacked two
-- files and -pthread and built a module that failed to load with
-- "undefined symbol: astar_hex_distance".)
--
-- A system spec (#system): it compiles the whole module, so it runs in its
-- own tier, not in the everyday suite.  Pending, with the reason, when cc,
-- lua5.4 or the Lua 5.4 headers the line names are missing.

local helpers = require("helpers")
local sources = dofile("tools/sources.lua")

local quote, run = helpers.quote, helpers.run

local slurp = helpers.slurp

-- One path on a walled grid and its cost, printed by the child.
local PROBE = [[
package.path = "lua/?.lua;lua/?/init.lua"
package.cpath = "./?.so"
local astar = require("astar")
local g = astar.grid(10, 10)
for y = 1, 8 do g:set_blocked(5, y, true) end
local p = assert(g:find_path(1, 1, 10, 1))
print(("vendored: %s, path cost %.4f, %d cells"):format(astar._VERSION, p.cost, #p.nodes))
]]

describe("#system the README's vendoring line", function()
  local command = sources.vendor_command(slurp("README.md"))
  local list = assert(sources.read())

  it("is a ```sh vendor block of README.md", function()
    assert.is_not_nil(command, "README.md has no ```sh vendor block")
  end)
  if not command then return end

  local cc = command:match("(%S+)%s+%-std=") or "cc"
  local inc = command:match("%-I(/%S+)")
  local missing = {}
  if not run("command -v " .. cc) then missing[#missing + 1] = cc end
  if not run("command -v lua5.4") then missing[#missing + 1] = "lua5.4" end
  if inc and not run("test -f " .. quote(inc .. "/lua.h")) then missing[#missing + 1] = inc .. "/lua.h" end
  if #missing > 0 then
    pending("skipped: needs " .. table.concat(missing, ", ") .. " (Debian: gcc, lua5.4, liblua5.4-dev)")
    return
  end

  it("builds, from the listed files alone, a module that lua5.4 loads and finds a path with", function()
    local dir = os.tmpname()
    os.remove(dir)
    -- the listed files (src/sources.mk's, nothing else of src/) and the Lua part
    local copy = { "mkdir -p " .. quote(dir .. "/src"), "cp -R lua " .. quote(dir) }
    for _, f in ipairs(list.all) do copy[#copy + 1] = "cp " .. quote(f) .. " " .. quote(dir .. "/src/") end
    local ok, out = run(table.concat(copy, " && "))
    assert(ok, out)
    local script = io.open(dir .. "/vendor.sh", "wb")
    script:write(command)
    script:close()
    ok, out = run("cd " .. quote(dir) .. " && sh -e vendor.sh")
    assert(ok, "the README's vendoring line failed:\n" .. command .. "\n" .. out)
    local probe = io.open(dir .. "/probe.lua", "wb")
    probe:write(PROBE)
    probe:close()
    ok, out = run("cd " .. quote(dir) .. " && LUA_PATH= LUA_CPATH= lua5.4 probe.lua")
    run("rm -rf " .. quote(dir))
    assert(ok, "the module built by the README's vendoring line does not work:\n" .. out)
    -- the same path through the module under test
    local astar = require("astar")
    local g = astar.grid(10, 10)
    for y = 1, 8 do g:set_blocked(5, y, true) end
    local p = assert(g:find_path(1, 1, 10, 1))
    assert.are.equal(("vendored: %s, path cost %.4f, %d cells\n"):format(astar._VERSION, p.cost, #p.nodes), out)
  end)
end)
