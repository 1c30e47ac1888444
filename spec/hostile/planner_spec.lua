-- astar.planner with wrong values at every argument: the exact message,
-- the planner unchanged and still serving a normal request afterwards.
local astar = require("astar")
local error_of = require("helpers").error_of

local NAN = 0 / 0

-- A planner with one request queued; ok(pl) checks it still works.
local function fresh()
  local g = astar.grid(8, 8)
  local pl = astar.planner(g)
  pl:request("first", { 1, 1 }, { 8, 8 })
  return pl
end

local function ok(pl)
  assert.equal(1, pl:pending())
  local out = pl:update({ expansions = 1000 })
  assert.equal(1, #out)
  assert.equal("first", out[1].key)
  assert.is_not_nil(out[1].path)
end

describe("astar.planner (hostile arguments)", function()
  it("refuses what is not a topology or options", function()
    local g = astar.grid(4, 4)
    local cases = {
      { { nil }, "bad argument #1 to 'planner' (graph, grid or hex grid expected, got nil)" },
      { { {} }, "bad argument #1 to 'planner' (graph, grid or hex grid expected, got table)" },
      { { astar.field(g) }, "bad argument #1 to 'planner' (graph, grid or hex grid expected, got astar.Field)" },
      { { g, 5 }, "bad argument #2 to 'planner' (options must be a table, got 5)" },
      { { g, { agin = 1 } }, "bad argument #2 to 'planner' (unknown option \"agin\")" },
      { { g, { aging = -1 } }, "bad argument #2 to 'planner' (aging must be a number of frames >= 0, got -1)" },
      { { g, { aging = NAN } }, "bad argument #2 to 'planner' (aging must be a number of frames >= 0, got nan)" },
      { { g, { aging = math.huge } }, "bad argument #2 to 'planner' (aging must be a number of frames >= 0, got inf)" },
      { { g, { locate = 1 } }, "bad argument #2 to 'planner' (locate must be a function, got 1)" },
      { { g, { clock = "os.clock" } }, "bad argument #2 to 'planner' (clock must be a function, got \"os.clock\")" },
      { { g, { watch = 1 } }, "bad argument #2 to 'planner' (watch must be a boolean, got 1)" },
      { { g, { slice = 0 } }, "bad argument #2 to 'planner' (slice must be an integer >= 1, got 0)" },
      { { g, { slice = 1.5 } }, "bad argument #2 to 'planner' (slice must be an integer >= 1, got 1.5)" },
    }
    for _, c in ipairs(cases) do
      assert.equal(c[2], error_of(astar.planner, c[1][1], c[1][2]))
    end
    -- a callable table is a function
    assert.is_not_nil(astar.planner(g, { locate = setmetatable({}, { __call = function() end }) }))
  end)

  it("refuses bad keys, ends and request options, and changes nothing", function()
    local pl = fresh()
    local cases = {
      { { nil, { 1, 1 }, { 2, 2 } }, "bad argument #1 to 'request' (key must not be nil or NaN, got nil)" },
      { { NAN, { 1, 1 }, { 2, 2 } }, "bad argument #1 to 'request' (key must not be nil or NaN, got nan)" },
      { { "k", nil, { 2, 2 } }, "bad argument #2 to 'request' (from must be a table { x, y } of integers, got nil)" },
      { { "k", { 1.5, 1 }, { 2, 2 } },
        "bad argument #2 to 'request' (from must be a table { x, y } of integers, got table)" },
      { { "k", { 1, 1 }, 7 }, "bad argument #3 to 'request' (to must be a table { x, y } of integers, got 7)" },
      { { "k", { 0, 1 }, { 2, 2 } }, "bad argument #2 to 'request' (x must be an integer in 1..8, got 0)" },
      { { "k", { 1, 1 }, { 2, 9 } }, "bad argument #3 to 'request' (y must be an integer in 1..8, got 9)" },
      { { "k", { 1, 1 }, { 2, 2 }, 3 }, "bad argument #4 to 'request' (options must be a table, got 3)" },
      { { "k", { 1, 1 }, { 2, 2 }, { priority = NAN } },
        "bad argument #4 to 'request' (priority must be a finite number, got nan)" },
      { { "k", { 1, 1 }, { 2, 2 }, { priority = "high" } },
        "bad argument #4 to 'request' (priority must be a finite number, got \"high\")" },
      { { "k", { 1, 1 }, { 2, 2 }, { watch = "yes" } },
        "bad argument #4 to 'request' (watch must be a boolean, got \"yes\")" },
      { { "k", { 1, 1 }, { 2, 2 }, { huristic = "octile" } },
        "bad argument #4 to 'request' (unknown option \"huristic\")" },
      { { "k", { 1, 1 }, { 2, 2 }, { size = 0 } },
        "bad argument #4 to 'request' (size must be an integer in 1..255, got 0)" },
    }
    for _, c in ipairs(cases) do
      local a = c[1]
      assert.equal(c[2], error_of(pl.request, pl, a[1], a[2], a[3], a[4]))
    end
    -- a refused new order for a key keeps its old one
    assert.equal(error_of(pl.request, pl, "first", { 0, 0 }, { 2, 2 }),
      "bad argument #2 to 'request' (x must be an integer in 1..8, got 0)")
    ok(pl)
  end)

  it("refuses bad budgets", function()
    local pl = fresh()
    local cases = {
      { nil, "bad argument #1 to 'update' (budget must be seconds or a table { time =, expansions = }, got nil)" },
      { "2ms", "bad argument #1 to 'update' (budget must be seconds or a table { time =, expansions = }, got \"2ms\")" },
      { 0, "bad argument #1 to 'update' (time must be a number of seconds > 0, got 0)" },
      { -1, "bad argument #1 to 'update' (time must be a number of seconds > 0, got -1)" },
      { NAN, "bad argument #1 to 'update' (time must be a number of seconds > 0, got nan)" },
      { math.huge, "bad argument #1 to 'update' (time must be a number of seconds > 0, got inf)" },
      { {}, "bad argument #1 to 'update' (budget needs time or expansions)" },
      { { expansions = 0 }, "bad argument #1 to 'update' (expansions must be an integer >= 1, got 0)" },
      { { expansions = 2.5 }, "bad argument #1 to 'update' (expansions must be an integer >= 1, got 2.5)" },
      { { time = "1" }, "bad argument #1 to 'update' (time must be a number of seconds > 0, got \"1\")" },
      { { frames = 1 }, "bad argument #1 to 'update' (unknown budget field \"frames\")" },
    }
    for _, c in ipairs(cases) do
      assert.equal(c[2], error_of(pl.update, pl, c[1]))
    end
    assert.equal(0, pl:stats().frames)       -- a refused update is no frame
    ok(pl)
  end)

  it("refuses a wrong self, and answers nil keys with nothing", function()
    local pl = fresh()
    assert.equal("bad argument #1 to 'update' (planner expected, got table)", error_of(pl.update, {}, 1))
    assert.equal("bad argument #1 to 'request' (planner expected, got nil)", error_of(pl.request))
    assert.equal("bad argument #1 to 'cancel' (planner expected, got 5)", error_of(pl.cancel, 5))
    assert.equal("bad argument #1 to 'status' (planner expected, got \"x\")", error_of(pl.status, "x"))
    assert.equal("bad argument #1 to 'pending' (planner expected, got nil)", error_of(pl.pending))
    assert.equal("bad argument #1 to 'stats' (planner expected, got true)", error_of(pl.stats, true))
    assert.is_false(pl:cancel(nil))
    assert.is_false(pl:cancel(NAN))
    assert.is_nil(pl:status(nil))
    ok(pl)
  end)

  it("lets a raising clock reach the caller with its value, and stays usable", function()
    local g = astar.grid(8, 8)
    local fail = false
    local pl = astar.planner(g, { clock = function()
      if fail then error("clock broke") end
      return 0
    end })
    pl:request("first", { 1, 1 }, { 8, 8 })
    fail = true
    local okc, err = pcall(pl.update, pl, 0.001)
    assert.is_false(okc)
    assert.truthy(tostring(err):find("clock broke", 1, true))
    fail = false
    assert.equal(1, pl:pending())
    local out = pl:update({ expansions = 1000 })
    assert.is_not_nil(out[1].path)
  end)
end)

describe("astar.planner (callbacks that raise)", function()
  it("drops the request whose heuristic raised, passes the error on, and loses no result", function()
    local g = astar.grid(30, 30)
    local pl = astar.planner(g)
    pl:request("quick", { 1, 1 }, { 2, 1 })
    local calls = 0
    pl:request("bad", { 1, 1 }, { 30, 30 }, { algorithm = "astar", heuristic = function()
      calls = calls + 1
      if calls == 5 then error({ code = 7 }) end
      return 0
    end })
    pl:request("good", { 1, 1 }, { 30, 1 })
    local fine, err = pcall(pl.update, pl, { expansions = 1000 })
    assert.is_false(fine)
    assert.equal(7, err.code)
    assert.is_nil(pl:status("bad"))
    assert.equal(1, pl:pending())
    local out = pl:update({ expansions = 1000 })
    assert.equal(2, #out)
    assert.equal("quick", out[1].key)            -- delivered before the error, kept
    assert.equal("good", out[2].key)
    local s = pl:stats()
    assert.equal(2, s.delivered)
    assert.equal(1, s.failed)
  end)
end)

describe("astar.planner (a locate that answers nonsense)", function()
  local function setup(answer)
    local g = astar.grid(30, 9)
    local pl = astar.planner(g, { locate = function() return answer() end })
    pl:request("u", { 1, 5 }, { 30, 5 })
    pl:update({ expansions = 1000 })
    g:set_blocked(15, 5, true)
    return g, pl
  end

  it("checks the whole path and searches again from the order's start when locate says nothing usable", function()
    for _, answer in ipairs({ function() return nil end, function() return "x", {} end,
                              function() return 1.5, 2 end }) do
      local _, pl = setup(answer)
      local out = pl:update({ expansions = 1000 })
      assert.equal("invalidated", out[1].reason)
      assert.same({ 1, 5 }, out[2].path.xy[1])
    end
  end)

  it("answers unreachable when locate puts the unit off the map", function()
    local _, pl = setup(function() return 0, 99 end)
    local out = pl:update({ expansions = 1000 })
    assert.equal("invalidated", out[1].reason)
    assert.equal("unreachable", out[2].reason)
    assert.is_nil(pl:status("u"))
    assert.equal(0, pl:pending())
  end)
end)
