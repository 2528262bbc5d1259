// Written by make-icu-data.py: ICU's data package for the daemon, under ICU's entry symbol.
    .section .rodata.icudt76_dat,"a",@progbits
    .balign 16
    .globl icudt76_dat
    .type icudt76_dat, @object
icudt76_dat:
    .incbin "icudt76l.dat"
    .size icudt76_dat, . - icudt76_dat
    .section .note.GNU-stack,"",@progbits
