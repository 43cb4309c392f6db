/* placeholder */ typedef int sb_unused_main;
