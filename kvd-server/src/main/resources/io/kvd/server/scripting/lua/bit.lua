-- The bit library scripts see in Redis: LuaBitOp 1.0.2 (Redis's deps/lua/src/lua_bit.c), written
-- in Lua because Redis links the C library into its Lua and LuaJava's lua51 natives do not carry it.
-- A 32-bit value is held as a double in [0, 2^32) and returned signed, as BRET does.
local support = ...
local typerror = support.typerror
local tonumber, select, floor, frexp, sub, concat = tonumber, select, math.floor, math.frexp, string.sub, table.concat
local huge = math.huge

local TWO32, TWO31 = 4294967296, 2147483648

-- barg's conversion: n + 2^52 + 2^51, then the low 32 bits of that double's representation.
local function tobits(n)
  local s = n + 6755399441055744
  if s ~= s or s == huge or s == -huge then return 0 end
  if s < 0 then s = -s end
  if s < 4503599627370496 or s >= 9007199254740992 then
    if s == 0 then return 0 end
    s = frexp(s) * 9007199254740992
  end
  return s % TWO32
end

-- Lua 5.1's barg: lua_tonumber, and an error only when the bits are 0 and the value no number.
local function barg(narg, nargs, value)
  local n = tonumber(value)
  local b = tobits(n or 0)
  if b == 0 and n == nil then typerror(narg, 'number', nargs, value) end
  return b
end

local function signed(b)
  if b >= TWO31 then return b - TWO32 end
  return b
end

-- AND, OR and XOR of two 4-bit values, indexed a * 16 + b.
local function nibbletable(op)
  local t = {}
  for a = 0, 15 do
    for b = 0, 15 do
      local r, p, x, y = 0, 1, a, b
      for _ = 1, 4 do
        r = r + op(x % 2, y % 2) * p
        x, y, p = floor(x / 2), floor(y / 2), p * 2
      end
      t[a * 16 + b] = r
    end
  end
  return t
end
local AND = nibbletable(function(x, y) return x * y end)
local OR = nibbletable(function(x, y) return x + y - x * y end)
local XOR = nibbletable(function(x, y) return (x + y) % 2 end)

local function combine(t, x, y)
  local r, p = 0, 1
  for _ = 1, 8 do
    local a, b = x % 16, y % 16
    r = r + t[a * 16 + b] * p
    x, y, p = (x - a) / 16, (y - b) / 16, p * 16
  end
  return r
end

-- band, bor, bxor: the first argument, then the others from the last down, as BIT_OP reads them.
local function fold(t)
  return function(...)
    local nargs = select('#', ...)
    local b = barg(1, nargs, (...))
    for i = nargs, 2, -1 do
      b = combine(t, b, barg(i, nargs, (select(i, ...))))
    end
    return signed(b)
  end
end

local function shift(op)
  return function(...)
    local nargs = select('#', ...)
    local b = barg(1, nargs, (...))
    local n = barg(2, nargs, (select(2, ...))) % 32
    return signed(op(b, n))
  end
end

local bit = {}

function bit.tobit(...)
  return signed(barg(1, select('#', ...), (...)))
end

function bit.bnot(...)
  return signed(TWO32 - 1 - barg(1, select('#', ...), (...)))
end

bit.band = fold(AND)
bit.bor = fold(OR)
bit.bxor = fold(XOR)
bit.lshift = shift(function(b, n) return b * 2 ^ n % TWO32 end)
bit.rshift = shift(function(b, n) return floor(b / 2 ^ n) end)
bit.arshift = shift(function(b, n)
  if b >= TWO31 then return floor((b - TWO32) / 2 ^ n) % TWO32 end
  return floor(b / 2 ^ n)
end)
bit.rol = shift(function(b, n) return b * 2 ^ n % TWO32 + floor(b / 2 ^ (32 - n)) end)
bit.ror = shift(function(b, n) return b * 2 ^ (32 - n) % TWO32 + floor(b / 2 ^ n) end)

function bit.bswap(...)
  local b = barg(1, select('#', ...), (...))
  local b0, b1, b2, b3 = b % 256, floor(b / 256) % 256, floor(b / 65536) % 256, floor(b / 16777216)
  return signed(((b0 * 256 + b1) * 256 + b2) * 256 + b3)
end

local LOWER, UPPER = '0123456789abcdef', '0123456789ABCDEF'

-- tohex(x [, n]): n digits (default 8, at most 8), upper-case when n is negative.
function bit.tohex(...)
  local nargs = select('#', ...)
  local b = barg(1, nargs, (...))
  local n = 8
  if nargs >= 2 then n = signed(barg(2, nargs, (select(2, ...)))) end
  local digits = LOWER
  if n < 0 then n, digits = -n, UPPER end
  if n > 8 then n = 8 end
  local out = {}
  for i = n, 1, -1 do
    local d = b % 16
    out[i] = sub(digits, d + 1, d + 1)
    b = (b - d) / 16
  end
  return concat(out, '', 1, n)
end

return bit
