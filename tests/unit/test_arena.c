/* placeholder */ typedef int sb_unused_test_arena;
