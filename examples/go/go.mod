module gameai

go 1.19
