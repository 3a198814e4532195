// A member that a method defined in device.cu writes: its in-class
// initialiser is not its only value, in any unit.
class Tiles {
 public:
  void resize(int w);
  int width() const { return width_; }

 private:
  int width_ = 32;
};
