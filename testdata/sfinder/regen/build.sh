#!/bin/sh
# Builds sfinder (knewjade/solution-finder 0e7c935a5399159a3d9c42fb8721e3c6842ae17d, version 1.43)
# into /work/sfinder-build without Gradle: javac against Debian's commons-cli (1.5.0).
set -e
mkdir -p /work/sfinder-build && cd /work/sfinder-build
git clone https://github.com/knewjade/solution-finder src-repo
(cd src-repo && git checkout 0e7c935a5399159a3d9c42fb8721e3c6842ae17d)
mkdir -p classes run/input run/output
find src-repo/src/main/java -name '*.java' > sources.txt
taskset -c 1 javac -nowarn -encoding UTF-8 -cp /usr/share/java/commons-cli.jar -d classes @sources.txt
printf 'Main-Class: Main\nClass-Path: /usr/share/java/commons-cli.jar\n' > manifest.txt
jar cfm run/sfinder.jar manifest.txt -C classes .
cp -r src-repo/kicks run/ && cp src-repo/distribution/input/* run/input/ && cp -r src-repo/distribution/theme run/
# then install the wrapper: cp <repo>/testdata/sfinder/regen/sfinder /work/sfinder-build/sfinder
