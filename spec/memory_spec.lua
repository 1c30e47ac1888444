-- Memory the collector sees: the binding accounts its C memory (grids,
-- search state) to Lua's collector, so dropping objects returns memory
-- promptly, with default collector settings.  Each spec runs a child
-- interpreter (the one running busted) on the plain module, without the
-- sanitizer environment of `make check`, under `ulimit -v 8000000` (a run
-- that does not free dies at 8 GB instead of thrashing the machine), and
-- reads its peak resident size (VmHWM in /proc/self/status) at the end.
--
-- The child holds 2^18 live numbers first, as a game holds its own data:
-- with a near-empty Lua heap the collector runs so often that it frees the
-- dropped grids by chance; with a few MB of live data it waits until Lua's
-- own allocations double that, and C memory it is not told about piles up
-- meanwhile.
--
-- Linux only: pending when /proc/self/status cannot be read.  Heavy
-- (thousands of large grids): tagged #system, run by make test-system.
--
-- Portable across Lua 5.1, LuaJIT, 5.3 and 5.4.

-- The interpreter running this spec (busted --lua=...): arg[-1] when set.
local function lua_binary()
  local i, bin = -1, nil
  while arg and arg[i] do bin, i = arg[i], i - 1 end
  return bin or "lua5.4"
end

local LIMIT_KB = 200 * 1024

local PRELUDE = [[
local astar = require("astar")
local live = {}
for i = 1, 2 ^ 18 do live[i] = i end
]]

local EPILOGUE = [[
local f = assert(io.open("/proc/self/status", "rb"))
local status = f:read("*a")
f:close()
print("VmHWM " .. status:match("VmHWM:%s*(%d+)") .. " kB, " .. #live .. " live")
]]

-- runs the body in a child; returns its peak RSS in kB (or nil) and output
local function peak_rss(body)
  local name = os.tmpname()
  local f = assert(io.open(name, "wb"))
  f:write(PRELUDE, "local ok, err = pcall(function()\n", body, "\nend)\n",
    "if not ok then print(\"error: \" .. tostring(err)) end\n", EPILOGUE)
  f:close()
  -- the limit is set in a shell of its own, started after unsanitized()
  -- has cleared the sanitizer's LD_PRELOAD: under `make check` the shell
  -- io.popen starts carries the ASan runtime, whose reserved address space
  -- leaves it unable to map anything once limited
  local cmd = ("sh -c \"ulimit -v 8000000; LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' "
    .. "exec %s %s\" 2>&1; echo \"exit=$?\""):format(lua_binary(), name)
  local p = assert(io.popen(require("helpers").unsanitized(cmd)))
  local out = p:read("*a")
  p:close()
  os.remove(name)
  return tonumber(out:match("VmHWM (%d+) kB")), out
end

local function check(what, body)
  local kb, out = peak_rss(body)
  local err = out:match("error: ([^\n]*)")
  local report = kb and ("%s: peak RSS %.1f MB (limit %d MB)%s"):format(what, kb / 1024, LIMIT_KB / 1024,
    err and ", then it failed: " .. err or "")
    or ("%s: the child did not report its peak (address space limited to 8 GB):\n%s"):format(what, out)
  io.stderr:write("\n[memory] ", report, "\n")
  assert(kb and not err, report)
  assert(kb < LIMIT_KB, report)
end

describe("memory the collector sees #system", function()
  local f = io.open("/proc/self/status", "rb")
  if not (f and f:read("*a"):find("VmHWM:", 1, true)) then
    if f then f:close() end
    pending("skipped: needs /proc/self/status with VmHWM (Linux)")
    return
  end
  f:close()

  it("3,000 abandoned time-sliced queries on a 512x512 grid stay under 200 MB", function()
    check("3000 queries of 200 steps on a 512x512 grid", [[
      local g = astar.grid(512, 512)
      for _ = 1, 3000 do
        local q = g:query(1, 1, 512, 512)
        q:step(200)
      end
    ]])
  end)

  it("500 dropped 1024x1024 grids, each searched once, stay under 200 MB", function()
    check("500 grids of 1024x1024 with one find_path each", [[
      for _ = 1, 500 do
        local g = astar.grid(1024, 1024)
        assert(g:find_path(1, 1, 1024, 1024))
      end
    ]])
  end)
end)
