// Two inline functions of a header every unit includes (fmt's is_printable
// pair): a table lookup with no call, and a wrapper that takes an integer.
#include <cstddef>
#include <cstdint>

inline bool lookup(uint16_t x, const unsigned char *table, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (table[i] == (x & 0xff))
      return false;
  return true;
}

inline bool printable(uint32_t cp) {
  static const unsigned char table[] = {1, 2, 3};
  auto lower = static_cast<uint16_t>(cp);
  return lookup(lower, table, 3);
}
