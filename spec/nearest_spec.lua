-- grid:nearest_open and graph:nearest against brute-force scans of every
-- cell and node.

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, math = assert, math
local astar = require("astar")

local lcg = require("helpers").lcg

-- The distance between cell centres as the reference defines it: square
-- grids in cells, hex grids in centre spacings (to_world with cell_size 1
-- puts neighbours sqrt(3) apart).
local function centre_distance(g, hex, x0, y0, x, y)
  if not hex then return math.sqrt((x - x0) ^ 2 + (y - y0) ^ 2) end
  local ax, ay = g:to_world(x0, y0)
  local bx, by = g:to_world(x, y)
  return math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2) / math.sqrt(3)
end

-- Every cell where the unit fits, within max_radius: the least distance.
local function brute(g, hex, w, h, x0, y0, size, maxr)
  local best = math.huge
  for y = 1, h do
    for x = 1, w do
      local d = centre_distance(g, hex, x0, y0, x, y)
      if d <= maxr + 1e-9 and g:clearance(x, y) >= size and d < best then best = d end
    end
  end
  return best
end

describe("grid:nearest_open", function()
  for _, shape in ipairs({ "grid", "hex" }) do
    local hex = shape == "hex"
    it(shape .. ": the nearest cell where the unit fits, against a scan of every cell", function()
      local rng = lcg(hex and 99 or 42)
      local count = 0
      for _ = 1, 30 do
        local w, h = math.floor(rng() * 20) + 2, math.floor(rng() * 20) + 2
        local g = hex and astar.hex(w, h, { layout = ({ "odd_r", "even_r", "odd_q", "even_q" })[math.floor(rng() * 4) + 1] })
          or astar.grid(w, h)
        local density = rng() * 0.9
        for y = 1, h do
          for x = 1, w do
            if rng() < density then g:set_blocked(x, y, true) end
          end
        end
        for _ = 1, 10 do
          local x0, y0 = math.floor(rng() * w) + 1, math.floor(rng() * h) + 1
          local size = math.floor(rng() * 3) + 1
          local maxr = rng() < 0.3 and rng() * 6 or math.huge
          local want = brute(g, hex, w, h, x0, y0, size, maxr)
          local x, y, d = g:nearest_open(x0, y0, size, maxr)
          if want == math.huge then
            assert.is_nil(x)
          else
            assert.is_not_nil(x, ("(%d, %d) size %d radius %g: none found, %g expected"):format(x0, y0, size, maxr, want))
            assert.is_true(math.abs(d - want) < 1e-9, ("%g vs %g"):format(d, want))
            assert.is_true(math.abs(centre_distance(g, hex, x0, y0, x, y) - d) < 1e-9)
            assert.is_true(g:clearance(x, y) >= size)
            -- ties: no cell with a smaller id at the same distance
            for yy = 1, h do
              for xx = 1, w do
                if g:id(xx, yy) < g:id(x, y) and g:clearance(xx, yy) >= size then
                  assert.is_true(centre_distance(g, hex, x0, y0, xx, yy) > d + 1e-9)
                end
              end
            end
            count = count + 1
          end
        end
      end
      assert.is_true(count > 100)
    end)
  end

  it("an open cell is its own answer; nothing on a full wall", function()
    local g = astar.grid(3, 3)
    assert.same({ 2, 2, 0 }, { g:nearest_open(2, 2) })
    for y = 1, 3 do for x = 1, 3 do g:set_blocked(x, y, true) end end
    assert.is_nil(g:nearest_open(2, 2))
    assert.is_nil(g:nearest_open(2, 2, 1, 0))
  end)

  it("a wall cell in the middle of a big map: the cell above it (ties: the smaller id)", function()
    local g = astar.grid(4000, 4000)
    g:set_blocked(2000, 2000, true)
    assert.same({ 2000, 1999, 1 }, { g:nearest_open(2000, 2000) })
    assert.same({ 2001, 2000, 1 }, { g:nearest_open(2000, 2000, 2) }) -- the 2 x 2 unit east of it
  end)
end)

describe("graph:nearest", function()
  it("the nearest enabled node, against a scan", function()
    local rng = lcg(3)
    for _ = 1, 20 do
      local g = astar.graph()
      local n = math.floor(rng() * 30) + 1
      for _ = 1, n do g:add_node(rng() * 100, rng() * 100, rng() * 10) end
      for i = 1, n do if rng() < 0.2 then g:set_enabled(i, false) end end
      for _ = 1, 10 do
        local x, y, z = rng() * 100, rng() * 100, rng() * 10
        for _, use_z in ipairs({ false, true }) do
          local best, bd = nil, math.huge
          for i = 1, n do
            if g:is_enabled(i) then
              local px, py, pz = g:position(i)
              local d = (px - x) ^ 2 + (py - y) ^ 2 + (use_z and (pz - z) ^ 2 or 0)
              if d < bd then best, bd = i, d end
            end
          end
          local id, d
          if use_z then id, d = g:nearest(x, y, z) else id, d = g:nearest(x, y) end
          assert.equal(best, id)
          if best then assert.is_true(math.abs(d - math.sqrt(bd)) < 1e-9) end
        end
      end
    end
  end)

  it("nil on a graph without enabled nodes", function()
    local g = astar.graph()
    assert.is_nil(g:nearest(0, 0))
    g:add_node(1, 1)
    g:set_enabled(1, false)
    assert.is_nil(g:nearest(0, 0))
  end)
end)
