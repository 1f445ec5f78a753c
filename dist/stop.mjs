import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a as r}from"./chunks/chunk-5JQWHZF3.mjs";import"./chunks/chunk-3QJFPIEB.mjs";import"./chunks/chunk-ZRWR27OD.mjs";import{a as o}from"./chunks/chunk-2O74UCC2.mjs";import"./chunks/chunk-TLC3HZ45.mjs";import"./chunks/chunk-HW42IUVE.mjs";o("stop","Stop",t=>r(t,"stop",!0),12e3);
