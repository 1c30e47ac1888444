--- Ports the test tools' Lua files that Lua 5.5 refuses to compile, for the
-- interpreter that `make LUA=lua5.5` builds (see the Makefile).
--
--   lua5.5 spec/lua55/port.lua OUT_DIR SRC_DIR MODULE_DIR...
--
-- busted and its pure-Lua dependencies load under 5.5 from Debian's 5.4
-- directories, but a few of penlight's files assign to a `for` loop's
-- control variable, which 5.5 makes read-only ("attempt to assign to const
-- variable 'k'").  For each Lua file under SRC_DIR/MODULE_DIR that does not
-- compile under this interpreter, this writes a copy to OUT_DIR (same
-- relative path; OUT_DIR comes first on the 5.5 interpreter's path) with the
-- change the 5.5 manual prescribes ("declare a local variable with the same
-- name in the loop body"): the loop's header names `k__for` and its body
-- starts with `local k = k__for`, on the header's line (line numbers kept).
-- Nothing else changes, so the port behaves as the original does on 5.4.
-- Files that compile are left alone (read from SRC_DIR); a file whose error
-- is another one, or whose loop header is not on one line, stops the port
-- with its message.  The project's own Lua is never ported: it compiles on
-- 5.5 as written.

local out_dir, src_dir = arg[1], arg[2]
if not (out_dir and src_dir and arg[3]) then
  io.stderr:write("usage: lua5.5 spec/lua55/port.lua OUT_DIR SRC_DIR MODULE_DIR...\n")
  os.exit(2)
end

local load_string = loadstring or load -- luacheck: compat

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return text
end

local function split_lines(text)
  local lines = {}
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
  lines[#lines] = nil -- the part after the last newline, "" when the text ends with one
  return lines
end

local function escape(s) return (s:gsub("%p", "%%%0")) end

-- Rewrites, at or above line `at`, the nearest `for` header that declares
-- `name`; returns true when one was found.
local function rewrite_loop(lines, at, name)
  local word = "%f[%w_]" .. escape(name) .. "%f[^%w_]"
  for l = at, 1, -1 do
    local line = lines[l]
    local s, e, vars = line:find("%f[%w_]for%s+([%w_%s,]-)%s*%f[%w_]in%f[^%w_]")
    if not s then s, e, vars = line:find("%f[%w_]for%s+([%w_]+)%s*=") end
    if s and vars:find(word) then
      local header = line:sub(s, e):gsub(word, name .. "__for", 1)
      local rest = line:sub(e + 1)
      local ds, de = rest:find("%f[%w_]do%f[^%w_]")
      if not ds then return false end
      rest = rest:sub(1, de) .. " local " .. name .. " = " .. name .. "__for;" .. rest:sub(de + 1)
      lines[l] = line:sub(1, s - 1) .. header .. rest
      return true
    end
  end
  return false
end

-- The ported text of `path`, or nil when it compiles as it is.
local function port(path)
  local text = slurp(path)
  local ported = false
  for _ = 1, 200 do
    local f, err = load_string(text, "@" .. path)
    if f then return ported and text or nil end
    local line, name = err:match(":(%d+): attempt to assign to const variable '([%w_]+)'")
    if not line then error(path .. " does not compile under " .. _VERSION .. ": " .. err, 0) end
    local lines = split_lines(text)
    if not rewrite_loop(lines, tonumber(line), name) then
      error(path .. ":" .. line .. ": no one-line for loop declaring '" .. name .. "' above", 0)
    end
    text = table.concat(lines, "\n") .. (text:sub(-1) == "\n" and "\n" or "")
    ported = true
  end
  error(path .. ": too many loops to port", 0)
end

local count = 0
for i = 3, #arg do
  local list = assert(io.popen("cd '" .. src_dir .. "' && find -L '" .. arg[i] .. "' -name '*.lua' | sort"))
  for rel in list:lines() do
    local text = port(src_dir .. "/" .. rel)
    if text then
      local target = out_dir .. "/" .. rel
      assert(os.execute("mkdir -p '" .. target:match("^(.*)/[^/]*$") .. "'"))
      local f = assert(io.open(target, "wb"))
      f:write(text)
      f:close()
      count = count + 1
      print("ported for " .. _VERSION .. ": " .. rel)
    end
  end
  list:close()
end
print(("%d file(s) ported"):format(count))
