
"train:
8
inPlaceholder*
dtype0*
shape:ÿÿÿÿÿÿÿÿÿ*m
predictb

examples
in:0
t*

a:0
b:1	tensorflow/serving/predict"
k:
Öÿÿÿÿÿÿÿÿ