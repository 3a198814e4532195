// A class whose release method is defined out of line in pool.cu.
#pragma once
class Pool {
public:
  void give_back(void *p);
};
