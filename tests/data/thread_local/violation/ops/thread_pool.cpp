// Fixture (tests/CMakeLists.txt, ThreadLocal.*): the one file allowed a
// thread_local.
thread_local int tlsSelf = 0;
