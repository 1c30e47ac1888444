-- Misbehaving heuristic and cost callbacks: wrong return values, errors of
-- every type, yields, many failures in a row, non-callable tables; and what
-- the callbacks are given.
local error_of = require("helpers").error_of
local H = require("hostile.common")
local unpack, NEG_ZERO, NAN, HUGE, YIELD_MSG = H.unpack, H.NEG_ZERO, H.NAN, H.HUGE, H.YIELD_MSG
local U_GRID, chain, chain_ok, corridor, corridor_ok = H.U_GRID, H.chain, H.chain_ok, H.corridor, H.corridor_ok

-- Per topology: the fixture, its health check, a query with options, and
-- how messages name the first node (heuristic) and the first step (cost).
local CB = {
  { "graph", chain, chain_ok, function(g, o) return g:find_path(1, 3, o) end,
    "for node 1", "for edge 1 from node 1 to node 2" },
  { "grid", corridor, corridor_ok, function(g, o) return g:find_path(1, 1, 3, 1, o) end,
    "for cell (1, 1)", "for the step from (1, 1) to (2, 1)" },
}

local function returning(...)
  local n, vals = select("#", ...), { ... }
  return function() return unpack(vals, 1, n) end
end

describe("hostile callbacks", function()
  for _, C in ipairs(CB) do
    local kind, make, healthy, query, hnode, cstep = C[1], C[2], C[3], C[4], C[5], C[6]
    local function hmsg(what)
      return ("heuristic returned %s %s (expected a finite number >= 0)"):format(what, hnode)
    end
    local function cmsg(what)
      return ("cost callback returned %s %s (expected a finite number >= 0 or false)"):format(what, cstep)
    end

    local bad_returns = {
      { "nothing", returning(), "nil" },
      { "nil", returning(nil), "nil" },
      { "nil then a number", returning(nil, 1), "nil" },
      { "a numeric string", returning("1"), '"1"' },
      { "a string", returning("abc"), '"abc"' },
      { "true", returning(true), "true" },
      { "a table", returning({}), "table" },
      { "a function", returning(print), "function" },
      { "a Grid", returning(U_GRID), "astar.Grid" },
      { "-1", returning(-1), "-1" },
      { "-1e-300", returning(-1e-300), "-1e-300" },
      { "NaN", returning(NAN), "nan" },
      { "math.huge", returning(HUGE), "inf" },
      { "-math.huge", returning(-HUGE), "-inf" },
    }
    for _, b in ipairs(bad_returns) do
      it(kind .. " heuristic returning " .. b[1], function()
        local g = make()
        assert.equal(hmsg(b[3]), error_of(function() return query(g, { heuristic = b[2] }) end))
        healthy(g)
      end)
      it(kind .. " cost callback returning " .. b[1], function()
        local g = make()
        assert.equal(cmsg(b[3]), error_of(function() return query(g, { cost = b[2] }) end))
        healthy(g)
      end)
    end
    it(kind .. " heuristic returning false", function()
      local g = make()
      assert.equal(hmsg("false"), error_of(function() return query(g, { heuristic = returning(false) }) end))
      healthy(g)
    end)

    it(kind .. " callbacks returning several values: the first counts", function()
      local g = make()
      assert.equal(2, query(g, { heuristic = returning(0, "x", -1), stop = "optimal" }).cost)
      assert.equal(2, query(g, { cost = function(...) local t = { ... } return t[#t - (kind == "graph" and 1 or 0)], nil, -1 end }).cost)
      healthy(g)
    end)

    it(kind .. " callbacks returning -0.0 (a valid zero)", function()
      local g = make()
      assert.equal(2, query(g, { heuristic = returning(NEG_ZERO) }).cost)
      assert.equal(0, query(g, { cost = returning(NEG_ZERO) }).cost)
      healthy(g)
    end)

    it(kind .. " cost callback returning false forbids every step", function()
      local g = make()
      local p, why = query(g, { cost = returning(false) })
      assert.is_nil(p)
      assert.equal("unreachable", why)
      healthy(g)
    end)

    local raisers = {
      { "a string (level 0)", function() error("boom", 0) end, "boom" },
      { "a string with a position", function() error("boom") end, "boom" },
      { "a number", function() error(42, 0) end, 42 },
    }
    for _, r in ipairs(raisers) do
      for _, which in ipairs({ "heuristic", "cost" }) do
        it(("%s %s raising %s"):format(kind, which, r[1]), function()
          local g = make()
          assert.equal(r[3], error_of(function() return query(g, { [which] = r[2] }) end))
          healthy(g)
        end)
      end
    end

    for _, which in ipairs({ "heuristic", "cost" }) do
      it(("%s %s raising a table, nil or nothing: the very value arrives"):format(kind, which), function()
        local g = make()
        local obj = setmetatable({}, { __tostring = function() return "custom error" end })
        local ok, err = pcall(query, g, { [which] = function() error(obj) end })
        assert.is_false(ok)
        assert.equal(obj, err)
        -- nil as it arrives through plain pcall: nil up to 5.4; 5.5 puts a
        -- message in its place ("<no error object>")
        local _, plain_nil = pcall(error, nil)
        ok, err = pcall(query, g, { [which] = function() error(nil) end })
        assert.is_false(ok)
        assert.equal(plain_nil, err)
        ok, err = pcall(query, g, { [which] = function() error() end })
        assert.is_false(ok)
        assert.equal(plain_nil, err)
        healthy(g)
      end)

      it(("%s %s yielding inside a coroutine"):format(kind, which), function()
        local g = make()
        local co = coroutine.wrap(function()
          return query(g, { [which] = function() coroutine.yield("out") return 0 end })
        end)
        assert.equal(YIELD_MSG, error_of(co))
        healthy(g)
      end)

      it(("%s %s running many failures leaves nothing locked"):format(kind, which), function()
        local g = make()
        for i = 1, 300 do
          pcall(query, g, { [which] = function() error({ i }) end })
        end
        collectgarbage()
        healthy(g)
      end)

      it(("%s %s calling a non-callable table"):format(kind, which), function()
        local g = make()
        -- a __call that is not a function passes the option check (it is
        -- "callable" to the binding) and fails when called
        local t = setmetatable({}, { __call = 5 })
        local ok = pcall(query, g, { [which] = t })
        assert.is_false(ok)
        healthy(g)
      end)
    end
  end

  it("graph callbacks get integer ids and the edge id", function()
    local g = chain()
    local seen = {}
    g:find_path(1, 3, { heuristic = function(n, goal)
      seen[#seen + 1] = { "h", n, goal, math.floor(n) == n }
      return 0
    end, cost = function(a, b, c, e)
      seen[#seen + 1] = { "c", a, b, c, e }
      return c
    end })
    assert.same({ "h", 1, 3, true }, seen[1])
    assert.same({ "c", 1, 2, 1, 1 }, seen[2])
  end)

  it("grid callbacks get coordinates", function()
    local g = corridor()
    local seen = {}
    g:find_path(1, 1, 3, 1, { heuristic = function(...)
      seen[#seen + 1] = { "h", ... }
      return 0
    end, cost = function(...)
      seen[#seen + 1] = { "c", ... }
      return (select(5, ...))
    end })
    assert.same({ "h", 1, 1, 3, 1 }, seen[1])
    assert.same({ "c", 1, 1, 2, 1, 1 }, seen[2])
  end)
end)
