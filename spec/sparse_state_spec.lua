-- Jump point searches keep sparse node state (src/engine.h): a search owns
-- state for the nodes it touched, not for the regions of the map.
local astar = require("astar")

describe("sparse search state", function()
  it("a jump point search of an open 2000 x 2000 grid owns a few KB, A* the map's directory", function()
    local g = astar.grid(2000, 2000)
    local before = g:memory()
    local p = assert(g:find_path(1, 1, 2000, 2000))
    assert.equal(1999 * astar.DIAGONAL, p.cost)
    assert(g:memory() - before < 64 * 1024, g:memory() - before)
    -- the same grid's A*: a directory for every region of the map
    local a = assert(g:find_path(1, 1, 2000, 2000, { algorithm = "astar" }))
    assert.equal(p.cost, a.cost)
    assert(g:memory() - before > 512 * 1024, g:memory() - before)
  end)

  it("queries in turn on grids of other sizes, jps, jps+ and astar, answer as fresh grids do", function()
    local maps = {}
    for n = 1, 3 do
      local w = 30 * n
      local g = astar.grid(w, w)
      for y = 1, w do
        for x = 1, w do
          if (x % 9 == 4 and y % 13 ~= 2) or (x * 7 + y * 11) % 13 == 0 then g:set_blocked(x, y, true) end
        end
      end
      g:set_blocked(1, 1, false); g:set_blocked(w, w, false)
      maps[n] = g
    end
    maps[2]:precompute_jumps()
    for round = 1, 3 do
      for n, g in ipairs(maps) do
        local w = 30 * n
        local ref = g:find_path(1, 1, w, w, { algorithm = "astar" })
        for _, alg in ipairs({ "auto", "jps", n == 2 and "jps+" or "jps", "astar" }) do
          local p = g:find_path(1, 1, w, w, { algorithm = alg })
          assert.equal(ref == nil, p == nil)
          if ref then assert(math.abs(ref.cost - p.cost) < 1e-9, round .. alg) end
        end
        -- a time-sliced query steps the same search
        local q = g:query(1, 1, w, w)
        while q:step(1) == "searching" do end
        local r = q:result()
        assert.equal(ref == nil, r == nil)
        if ref then assert(math.abs(ref.cost - r.cost) < 1e-9) end
      end
    end
  end)

  it("a fresh grid's jump point query grows its state table as it goes: stepped, with a Lua heuristic, stop = optimal", function()
    -- 260 x 260 with a quarter of the cells blocked: a corner-to-corner
    -- jump point search touches thousands of nodes, so a fresh search's
    -- table (256 entries) grows several times inside the query, between
    -- and during its steps
    local w, seed = 260, 4242
    local function fresh()
      local g = astar.grid(w, w)
      local s = seed
      for y = 1, w do
        for x = 1, w do
          s = (s * 1103515245 + 12345) % 2147483648
          if s % 100 < 25 and not ((x <= 2 and y <= 2) or (x >= w - 1 and y >= w - 1)) then g:set_blocked(x, y, true) end
        end
      end
      return g
    end
    local ref = assert(fresh():find_path(1, 1, w, w, { algorithm = "astar" }))
    local function octile(x, y, gx, gy)
      local dx, dy = math.abs(x - gx), math.abs(y - gy)
      return dx < dy and (astar.DIAGONAL - 1) * dx + dy or (astar.DIAGONAL - 1) * dy + dx
    end
    for _, opts in ipairs({ { algorithm = "jps" }, { algorithm = "jps", heuristic = octile, stop = "optimal" } }) do
      local g = fresh()
      local q = g:query(1, 1, w, w, opts)
      local steps = 0
      while q:step(1) == "searching" do steps = steps + 1 end
      local r = assert(q:result())
      assert(steps > 500, steps)
      assert(math.abs(r.cost - ref.cost) < 1e-9, r.cost .. " " .. ref.cost)
      assert.same({ 1, 1 }, r.xy[1]); assert.same({ w, w }, r.xy[#r.xy])
      assert.equal(steps + 1, r.expanded)
      local p = assert(fresh():find_path(1, 1, w, w, opts))
      assert(math.abs(p.cost - ref.cost) < 1e-9)
      assert.equal(#p.nodes, #r.nodes)
      assert.equal(p.expanded, r.expanded)
    end
  end)
end)
