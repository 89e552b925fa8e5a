#!/bin/sh
echo hello hello hello hello hello hello hello hello
