-- The struct library scripts see in Redis (Redis's deps/lua/src/lua_struct.c, Roberto
-- Ierusalimschy's struct 1.4), written in Lua because Redis links the C library into its Lua and
-- LuaJava's lua51 natives do not carry it. Sizes and alignment are x86-64's: short 2, int 4,
-- long and size_t 8, native order little-endian, default maximum alignment 8.
local support = ...
local raise, argerror, checknumber, checkstring, optinteger =
  support.error, support.argerror, support.checknumber, support.checkstring, support.optinteger
local unpack, tonumber, frexp = unpack, tonumber, math.frexp
local select, floor, byte, char, sub, find, rep, concat, reverse, format =
  select, math.floor, string.byte, string.char, string.sub, string.find, string.rep, table.concat,
  string.reverse, string.format
local doublebytes, floatbytes, bytesdouble, bytesfloat, int64le =
  support.doublebytes, support.floatbytes, support.bytesdouble, support.bytesfloat, support.int64le

local MAXINTSIZE, MAXALIGN, INT_MAX = 32, 8, 2147483647
local SIZES = {b = 1, B = 1, h = 2, H = 2, l = 8, L = 8, T = 8, f = 4, d = 8, x = 1}
local INTEGER = {b = true, B = true, h = true, H = true, l = true, L = true, T = true, i = true, I = true}

local function isdigit(c) return c and c >= 48 and c <= 57 end

-- getnum: the digits at pos, or the default; returns the number and the position after it.
local function getnum(fmt, pos, default)
  local c = byte(fmt, pos)
  if not isdigit(c) then return default, pos end
  local a = 0
  repeat
    if a > INT_MAX / 10 or a * 10 > INT_MAX - (c - 48) then raise('integral size overflow') end
    a = a * 10 + c - 48
    pos = pos + 1
    c = byte(fmt, pos)
  until not isdigit(c)
  return a, pos
end

local function optsize(opt, fmt, pos)
  local size = SIZES[opt]
  if size then return size, pos end
  if opt == 'c' then return getnum(fmt, pos, 1) end
  if opt == 'i' or opt == 'I' then
    size, pos = getnum(fmt, pos, 4)
    if size > MAXINTSIZE then
      raise(format('integral size %d is larger than limit of %d', size, MAXINTSIZE))
    end
    return size, pos
  end
  return 0, pos
end

-- a & b for b < 64
local function band(a, b)
  local r, p = 0, 1
  a = a % 64
  while b > 0 do
    if a % 2 == 1 and b % 2 == 1 then r = r + p end
    a, b, p = floor(a / 2), floor(b / 2), p * 2
  end
  return r
end

-- The padding that aligns an item of this size at len.
local function gettoalign(len, align, opt, size)
  if size == 0 or opt == 'c' then return 0 end
  if size > align then size = align end
  return band(size - band(len, size - 1), size - 1)
end

local function ispowerof2(x) return x > 0 and frexp(x) == 0.5 end

-- '<', '>', '!n' and ' '; anything else is an invalid option. Returns the new settings and position.
local function controloptions(opt, fmt, pos, little, align)
  if opt == ' ' then return little, align, pos end
  if opt == '>' then return false, align, pos end
  if opt == '<' then return true, align, pos end
  if opt == '!' then
    local a
    a, pos = getnum(fmt, pos, MAXALIGN)
    if not ispowerof2(a) then raise(format('alignment %d is not a power of 2', a)) end
    return little, a, pos
  end
  argerror(1, "invalid format option '" .. opt .. "'")
end

-- The format stops at its first zero byte, as C reads it.
local function format_of(narg, nargs, value)
  local fmt = checkstring(narg, nargs, value)
  local zero = find(fmt, '\0', 1, true)
  if zero then fmt = sub(fmt, 1, zero - 1) end
  return fmt
end

-- putinteger: the C cast of the number to unsigned long, its low bytes (zeros past 8).
local function integerbytes(n, size, little)
  local v
  if n < 0 then
    if n < -9223372036854775808 then v = -9223372036854775808 else v = -floor(-n) end
  elseif n ~= n or n >= 18446744073709551616 then
    v = n ~= n and -9223372036854775808 or 0
  else
    v = floor(n)
  end
  local s = int64le(v)
  if size < 8 then s = sub(s, 1, size) elseif size > 8 then s = s .. rep('\0', size - 8) end
  if little then return s end
  return reverse(s)
end

local struct = {}

function struct.pack(...)
  -- b_pack pushes a nil after the arguments: a missing one is "nil", not "no value"
  local fmt = format_of(1, select('#', ...), (...))
  local nargs = select('#', ...) + 1
  local little, align = true, 1
  local out, count = {}, 0
  local arg, totalsize, pos = 2, 0, 1
  while pos <= #fmt do
    local opt = sub(fmt, pos, pos)
    local size
    size, pos = optsize(opt, fmt, pos + 1)
    local toalign = gettoalign(totalsize, align, opt, size)
    totalsize = totalsize + toalign
    if toalign > 0 then
      count = count + 1
      out[count] = rep('\0', toalign)
    end
    if INTEGER[opt] then
      local n = checknumber(arg, nargs, (select(arg, ...)))
      arg = arg + 1
      count = count + 1
      out[count] = integerbytes(n, size, little)
    elseif opt == 'x' then
      count = count + 1
      out[count] = '\0'
    elseif opt == 'f' or opt == 'd' then
      local n = checknumber(arg, nargs, (select(arg, ...)))
      arg = arg + 1
      local s = opt == 'f' and floatbytes(n) or doublebytes(n)
      count = count + 1
      out[count] = little and reverse(s) or s
    elseif opt == 'c' or opt == 's' then
      local s = checkstring(arg, nargs, (select(arg, ...)))
      arg = arg + 1
      if size == 0 then size = #s end
      if #s < size then argerror(arg, 'string too short') end
      count = count + 1
      out[count] = sub(s, 1, size)
      if opt == 's' then
        count = count + 1
        out[count] = '\0'
        size = size + 1
      end
    else
      little, align, pos = controloptions(opt, fmt, pos, little, align)
    end
    totalsize = totalsize + size
  end
  return concat(out, '', 1, count)
end

-- getinteger: the low 8 bytes of the field as unsigned long, sign-extended from bit size*8-1
-- (the shift count taken mod 64, as x86 does for the wider sizes).
local function getinteger(data, pos, little, signed, size)
  local s = sub(data, pos + 1, pos + size)
  if not little then s = reverse(s) end
  local b = {byte(s, 1, size > 8 and 8 or size)}
  local lo = (b[1] or 0) + (b[2] or 0) * 256 + (b[3] or 0) * 65536 + (b[4] or 0) * 16777216
  local hi = (b[5] or 0) + (b[6] or 0) * 256 + (b[7] or 0) * 65536 + (b[8] or 0) * 16777216
  local bit = (size * 8 - 1) % 64
  if signed then
    local negative
    if bit >= 32 then negative = hi >= 2 ^ (bit - 32) else negative = hi > 0 or lo >= 2 ^ bit end
    if negative then
      -- -(2^bit - (l mod 2^bit)), computed in halves so it is rounded once
      if bit >= 32 then
        local h = hi % 2 ^ (bit - 32)
        local borrow = lo > 0 and 1 or 0
        return -((2 ^ (bit - 32) - h - borrow) * 4294967296 + (lo > 0 and 4294967296 - lo or 0))
      end
      return -(2 ^ bit - lo % 2 ^ bit)
    end
  end
  return hi * 4294967296 + lo
end

function struct.unpack(...)
  local nargs = select('#', ...)
  local fmt = format_of(1, nargs, (...))
  local data = checkstring(2, nargs, (select(2, ...)))
  local ld = #data
  local offset = optinteger(3, nargs, (select(3, ...)), 1)
  if offset == 0 then argerror(3, 'offset must be 1 or greater') end
  -- a negative offset is a huge size_t in C: past the data
  local pos = offset - 1
  local little, align = true, 1
  local results, count = {}, 0
  local i = 1
  while i <= #fmt do
    local opt = sub(fmt, i, i)
    local size
    size, i = optsize(opt, fmt, i + 1)
    pos = pos + gettoalign(pos, align, opt, size)
    if pos < 0 or pos + size > ld then argerror(2, 'data string too short') end
    if INTEGER[opt] then
      count = count + 1
      results[count] = getinteger(data, pos, little, opt == 'b' or opt == 'h' or opt == 'l' or opt == 'i', size)
    elseif opt == 'f' then
      local s = sub(data, pos + 1, pos + 4)
      count = count + 1
      results[count] = bytesfloat(little and reverse(s) or s, 1)
    elseif opt == 'd' then
      local s = sub(data, pos + 1, pos + 8)
      count = count + 1
      results[count] = bytesdouble(little and reverse(s) or s, 1)
    elseif opt == 'c' then
      if size == 0 then
        local previous = results[count]
        if count == 0 or tonumber(previous) == nil then raise("format 'c0' needs a previous size") end
        size = tonumber(previous)
        size = size >= 0 and floor(size) or -1
        results[count] = nil
        count = count - 1
        if size < 0 or pos + size > ld then argerror(2, 'data string too short') end
      end
      count = count + 1
      results[count] = sub(data, pos + 1, pos + size)
    elseif opt == 's' then
      local zero = find(data, '\0', pos + 1, true)
      if not zero then raise('unfinished string in data') end
      size = zero - pos
      count = count + 1
      results[count] = sub(data, pos + 1, zero - 1)
    elseif opt ~= 'x' then
      little, align, i = controloptions(opt, fmt, i, little, align)
    end
    pos = pos + size
  end
  count = count + 1
  results[count] = pos + 1
  return unpack(results, 1, count)
end

local function isalnum(c)
  return find(c, '^%w$') ~= nil
end

function struct.size(...)
  local nargs = select('#', ...)
  local fmt = format_of(1, nargs, (...))
  local little, align = true, 1
  local pos, i = 0, 1
  while i <= #fmt do
    local opt = sub(fmt, i, i)
    local size
    size, i = optsize(opt, fmt, i + 1)
    pos = pos + gettoalign(pos, align, opt, size)
    if opt == 's' then
      argerror(1, "option 's' has no fixed size")
    elseif opt == 'c' and size == 0 then
      argerror(1, "option 'c0' has no fixed size")
    end
    if not isalnum(opt) then little, align, i = controloptions(opt, fmt, i, little, align) end
    pos = pos + size
  end
  return pos
end

return struct
