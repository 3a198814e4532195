// An inline function whose body depends on a macro its includer sets.
inline int tileWidth() { return TILE_WIDTH; }
