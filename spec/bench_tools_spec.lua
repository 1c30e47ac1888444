-- The bench tools' own contracts: bench/util.lua's grouped median (bench/ab.lua's
-- AB_FINE and bench/warthog.lua's Lua medians) and bench/core_bench.c's
-- opt-in clock and per-query lists (bench/warthog.lua parses them, beside
-- the fields bench/core_ab.lua parses).
local util = dofile("bench/util.lua")

describe("bench/util.lua's grouped median", function()
  it("places the median within its whole step by the share of the values below it", function()
    -- 1, 1, 2, 2, 2, 3: the median step is 2 ([1.5, 2.5)); 2 of 6 values
    -- lie below it, 3 in it: 1.5 + (3 - 2) / 3
    assert.are.equal(1.5 + 1 / 3, util.grouped_median({ 2, 3, 1, 2, 1, 2 }))
    -- all in one step: its middle
    assert.are.equal(7, util.grouped_median({ 7, 7, 7, 7 }))
    -- 5 values, 1 below the step of 4 and 3 in it: 3.5 + (2.5 - 1) / 3
    assert.are.equal(3.5 + 1.5 / 3, util.grouped_median({ 4, 9, 4, 1, 4 }))
  end)

  it("takes the plain median of values that are not all whole, NaN of none", function()
    assert.are.equal(2.25, util.grouped_median({ 1, 2.5, 2, 3 }))
    local nan = util.grouped_median({})
    assert.is_true(nan ~= nan)
  end)

  it("leaves its argument as it was", function()
    local t = { 3, 1, 2 }
    util.grouped_median(t)
    assert.are.same({ 3, 1, 2 }, t)
  end)
end)

describe("bench/core_bench.c #system", function()
  local astar = require("astar")
  local dir, bin

  local function sh(cmd)
    local p = assert(io.popen(cmd .. " 2>&1; echo rc=$?"))
    local out = p:read("*a")
    p:close()
    return out:gsub("rc=(%d+)%s*$", ""), tonumber(out:match("rc=(%d+)%s*$"))
  end

  setup(function()
    -- linked with the core's objects, which make test-system builds first
    local list = assert(dofile("tools/sources.lua").read())
    local objects = {}
    for i, f in ipairs(list.core) do
      objects[i] = f:gsub("^src/(.*)%.c$", "build/obj/%1.o")
      assert(io.open(objects[i], "rb"), objects[i] .. " missing: run make first")
    end
    dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    bin = dir .. "/core_bench"
    local out, rc = sh(("cc -std=c99 -O2 -Isrc -o %s bench/core_bench.c %s %s"):format(bin,
      table.concat(objects, " "), table.concat(list.libs, " ")))
    assert(rc == 0, out)
    -- a 12 x 8 map with a wall, and 9 queries whose optima the module gives
    local rows = {
      "............", "............", "....@@@@@...", "........@...",
      "........@...", "..@@@...@...", "............", "............",
    }
    local f = assert(io.open(dir .. "/m.map", "wb"))
    f:write("type octile\nheight 8\nwidth 12\nmap\n", table.concat(rows, "\n"), "\n")
    f:close()
    local g = astar.maps.load(dir .. "/m.map")
    f = assert(io.open(dir .. "/m.map.scen", "wb"))
    f:write("version 1\n")
    local n, i = 0, 0
    while n < 9 do
      local sx, sy, gx, gy = i % 3, i % 8, 11 - i % 12, 7 - (i * 3) % 8
      local p = g:find_path(sx + 1, sy + 1, gx + 1, gy + 1)
      if p and p.cost > 0 then
        f:write(("0\tm.map\t12\t8\t%d\t%d\t%d\t%d\t%.8f\n"):format(sx, sy, gx, gy, p.cost))
        n = n + 1
      end
      i = i + 1
    end
    f:close()
  end)

  teardown(function()
    if dir then os.execute("rm -rf " .. dir) end
  end)

  local function run(env, alg)
    local out, rc = sh(("%s %s %s/m.map %s/m.map.scen 1 1 %s"):format(env, bin, dir, dir, alg or "auto"))
    return out, rc
  end

  -- runs `env` with each algorithm, checks the answers, hands over the output
  local function each_algorithm(env, check)
    for _, alg in ipairs({ "auto", "jps+", "astar" }) do
      local out, rc = run(env, alg)
      assert.are.equal(0, rc, out)
      assert.are.equal("0", out:match("mismatches=(%d+)"))
      check(out)
    end
  end

  local function list_of(out, key)
    local t = {}
    for v in (out:match(key .. "=(%S+)") or ""):gmatch("[^,]+") do t[#t + 1] = tonumber(v) end
    return t
  end

  it("keeps CPU time and bench/core_ab.lua's fields by default, and names its clock", function()
    local out, rc = run("", "auto")
    assert.are.equal(0, rc, out)
    assert.are.equal("9", out:match("queries=(%d+)"))
    assert.are.equal("0", out:match("mismatches=(%d+)"))
    assert.is_truthy(out:match("seconds=%S+") and out:match("median_us=%S+"))
    assert.are.equal("cpu", out:match("clock=(%a+)"))
    assert.is_true(tonumber(out:match("clock_us=(%S+)")) > 0)
    assert.is_nil(out:match("times_us="))
  end)

  it("times by CLOCK_MONOTONIC under CORE_BENCH_CLOCK=wall and lists every query with its expansions", function()
    each_algorithm("CORE_BENCH_CLOCK=wall CORE_BENCH_TIMES=1", function(out)
      assert.are.equal("wall", out:match("clock=(%a+)"))
      local times, each = list_of(out, "times_us"), list_of(out, "expanded_each")
      assert.are.equal(9, #times)
      assert.are.equal(9, #each)
      local sum_t, sum_e = 0, 0
      for i = 1, 9 do
        assert.is_true(times[i] >= 0 and each[i] >= 1)
        sum_t, sum_e = sum_t + times[i], sum_e + each[i]
      end
      assert.are.equal(tonumber(out:match("expansions=(%d+)")), sum_e)
      -- seconds= (printed to 1 us) is the sum of the listed times (to 1 ns)
      assert.is_true(math.abs(tonumber(out:match("seconds=(%S+)")) * 1e6 - sum_t) < 0.5 + 9 * 0.0005 + 1e-6)
    end)
  end)

  it("times the path as well under CORE_BENCH_PATH=1, and says so", function()
    each_algorithm("CORE_BENCH_CLOCK=wall CORE_BENCH_PATH=1", function(out)
      assert.is_truthy(out:match(" path=timed"))
    end)
    assert.is_nil((run("CORE_BENCH_CLOCK=wall", "auto")):match("path=timed"))
  end)

  it("splits each query into begin, the start's expansion and the rest under CORE_BENCH_PHASES=1", function()
    each_algorithm("CORE_BENCH_CLOCK=wall CORE_BENCH_PHASES=1", function(out)
      local b, f, r = out:match("begin_seconds=(%S+) first_seconds=(%S+) rest_seconds=(%S+)")
      b, f, r = tonumber(b), tonumber(f), tonumber(r)
      assert.is_true(b >= 0 and f >= 0 and r >= 0, out)
      -- the parts of the kept runs add up to seconds= (each printed to 1 us)
      assert.is_true(math.abs(b + f + r - tonumber(out:match(" seconds=(%S+)"))) < 3e-6, out)
      local parts = list_of(out, "median_parts_us")
      assert.are.equal(3, #parts)
    end)
    assert.is_nil((run("CORE_BENCH_CLOCK=wall", "auto")):match("begin_seconds="))
  end)

  it("refuses a clock it does not know, naming it", function()
    local out, rc = run("CORE_BENCH_CLOCK=tsc", "auto")
    assert.are.equal(2, rc)
    assert.is_truthy(out:find("CORE_BENCH_CLOCK: 'cpu' or 'wall' expected, got 'tsc'", 1, true))
  end)
end)
