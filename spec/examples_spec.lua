-- The example scripts must keep running: each is run as a user would (a
-- fresh interpreter, the README's LUA_PATH / LUA_CPATH) and its output
-- checked for what it promises.
local function lua_binary()
  -- the interpreter running this spec (busted --lua=...): arg[-1] when set
  local i, bin = -1, nil
  while arg and arg[i] do bin, i = arg[i], i - 1 end
  return bin or "lua5.4"
end

local function run(script, args)
  local cmd = ("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' %s %s %s 2>&1")
    :format(lua_binary(), script, args or "")
  local p = assert(io.popen(require("helpers").unsanitized(cmd)))
  local out = p:read("*a")
  p:close()
  return out
end

describe("examples", function()
  it("agents.lua: fifty agents path across frames from coroutines #pure", function()
    local out = run("examples/agents.lua")
    assert.matches("50 agents, 50 paths found, 0 unreachable, in %d+ frames", out)
  end)

  it("waypoints.lua: prints the path and the step tables of two heuristics", function()
    local out = run("examples/waypoints.lua")
    assert.matches("heuristic zero%s+path G %-> H %-> D %-> A", out)
    assert.matches("heuristic euclidean%s+path G %-> H %-> D %-> A", out)
    assert.matches("%[1%] N: G%(%-, 0%.00, 0%.00%)", out)
    assert.matches("door locked%s+path G %-> H %-> S %-> C2 %-> A", out)
  end)

  it("compare_heuristics.lua: the table and one SVG per run", function()
    local dir = os.tmpname()
    os.remove(dir)
    local out = run("examples/compare_heuristics.lua", dir)
    for _, h in ipairs({ "Euclidean", "Manhattan", "Bisector", "Full bisector", "Zero" }) do
      assert.matches("| " .. h:gsub("%-", "%%-") .. "%s+| first hit", out)
      assert.matches("| " .. h:gsub("%-", "%%-") .. "%s+| optimal", out)
    end
    local svgs = 0
    local p = io.popen("ls " .. dir .. "/*.svg 2>/dev/null")
    for name in p:lines() do
      local f = assert(io.open(name, "rb"))
      assert.matches("^<svg", f:read("*a"):gsub("^<%?xml[^>]*>%s*", ""))
      f:close()
      svgs = svgs + 1
      os.remove(name)
    end
    p:close()
    os.remove(dir)
    assert.equal(10, svgs)
  end)
end)
